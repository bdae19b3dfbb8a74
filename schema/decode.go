package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// NormalizeInput prepares a tool's JSON input for validation and decoding:
//
//   - A number written with a fraction or an exponent whose value is an
//     integer (1e3, 10.0) is rewritten as the integer literal (1000, 10).
//     JSON Schema counts it as an integer, so the validator accepts it;
//     Go's decoder would refuse it for an int field.
//   - A string (a value or a key) holding a lone UTF-16 surrogate escape
//     (\ud800 not followed by its pair) or bytes that are not UTF-8 is a
//     *ValidationError naming the field: decoding would turn it into U+FFFD
//     silently, and text typed from it would not arrive as given.
//
// The rest of the input is kept byte for byte. Input that is not JSON is
// returned unchanged: the validator reports it.
func NormalizeInput(t Tool, data []byte) ([]byte, error) {
	if err := CheckShape(data); err != nil {
		return nil, &ValidationError{Tool: t.Name, What: "input", Problems: []Problem{{"", err.Error()}}}
	}
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	type level struct {
		object  bool
		wantKey bool   // objects: the next token is a key (or the end)
		field   string // the container's own field path
		key     string // objects: the current member's key
		index   int    // arrays: the next element's index
	}
	var stack []level
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	prevEnd := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return data, nil // not JSON: the validator says so
		}
		end := int(dec.InputOffset())
		start := prevEnd
		for start < end && bytes.IndexByte([]byte(" \t\r\n,:"), data[start]) >= 0 {
			start++
		}
		prevEnd = end
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			continue
		}
		field := "" // the field this value is
		if n := len(stack); n > 0 {
			l := &stack[n-1]
			switch {
			case l.object && l.wantKey:
				l.key, l.wantKey = tok.(string), false
				if bad := badString(data[start:end]); bad != "" {
					return nil, &ValidationError{Tool: t.Name, What: "input", Problems: []Problem{{join(l.field, l.key), "the key " + bad}}}
				}
				continue
			case l.object:
				field, l.wantKey = join(l.field, l.key), true
			default:
				field = join(l.field, strconv.Itoa(l.index))
				l.index++
			}
		}
		switch v := tok.(type) {
		case json.Delim: // { or [
			stack = append(stack, level{object: v == '{', wantKey: v == '{', field: field})
		case string:
			if bad := badString(data[start:end]); bad != "" {
				return nil, &ValidationError{Tool: t.Name, What: "input", Problems: []Problem{{field, bad}}}
			}
		case json.Number:
			if lit, ok := integral(string(v)); ok {
				edits = append(edits, edit{start, end, lit})
			}
		}
	}
	if len(edits) == 0 {
		return data, nil
	}
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		out.Write(data[last:e.start])
		out.WriteString(e.text)
		last = e.end
	}
	out.Write(data[last:])
	return out.Bytes(), nil
}

// CheckShape refuses, in one pass over the bytes and before any decoder
// sees them, JSON nested deeper than MaxJSONDepth and a string that would
// decode to more than MaxText bytes. A decoder pays for both far more than
// their size: Go's keeps a path per level (memory with the square of the
// depth), and a long string is copied and validated several times. No
// tool's input needs either.
func CheckShape(data []byte) error {
	depth, inString, strStart, strLen := 0, false, 0, 0
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch {
			case c == '"':
				inString = false
				continue
			case c == '\\' && i+1 < len(data) && data[i+1] == 'u':
				strLen += escapedLen(data, i+2)
				i += 5
			case c == '\\':
				i++
				strLen++
			default:
				strLen++
			}
			if strLen > MaxText {
				return fmt.Errorf("the string at byte %d is longer than %d bytes: no argument takes more (text is at most 1 MiB)", strStart, MaxText)
			}
			continue
		}
		switch c {
		case '"':
			inString, strStart, strLen = true, i, 0
		case '[', '{':
			if depth++; depth > MaxJSONDepth {
				return fmt.Errorf("nested deeper than %d levels at byte %d: no tool's input is nested that deep", MaxJSONDepth, i)
			}
		case ']', '}':
			depth--
		}
	}
	return nil
}

// escapedLen is the UTF-8 length of the \u escape whose hex digits start
// at at: 1 to 3 bytes, and 2 for each half of a surrogate pair (4 in all).
func escapedLen(data []byte, at int) int {
	r, ok := hex4(data, at)
	switch {
	case !ok:
		return 0 // not JSON: the decoder says so
	case r < 0x80:
		return 1
	case r < 0x800 || utf16.IsSurrogate(r):
		return 2
	}
	return 3
}

// badString says what is wrong with a JSON string literal (quotes
// included) that would not decode to exactly what it spells: bytes that
// are not UTF-8, or a surrogate escape without its pair. "" when none.
func badString(lit []byte) string {
	if !utf8.Valid(lit) {
		return "holds bytes that are not UTF-8: JSON text must be UTF-8 (they would arrive as U+FFFD)"
	}
	for i := 0; i+1 < len(lit); i++ {
		if lit[i] != '\\' {
			continue
		}
		if lit[i+1] != 'u' {
			i++ // \\, \" and the like
			continue
		}
		r, ok := hex4(lit, i+2)
		if !ok {
			continue
		}
		if utf16.IsSurrogate(r) {
			if r < 0xdc00 && i+11 < len(lit) && lit[i+6] == '\\' && lit[i+7] == 'u' {
				if r2, ok := hex4(lit, i+8); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
					i += 11 // a valid pair
					continue
				}
			}
			return `holds a lone UTF-16 surrogate (\u` + string(lit[i+2:i+6]) + `): it is not a character and would arrive as U+FFFD; give the character itself, or both halves of its surrogate pair`
		}
		i += 5
	}
	return ""
}

func hex4(b []byte, at int) (rune, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[at:at+4]), 16, 32)
	return rune(n), err == nil
}

// integral returns the integer literal of a JSON number written with a
// fraction or an exponent whose value is an integer that fits in 64 bits
// (1e3: "1000"). Long literals and large exponents are left alone (never
// expanded: 1e999999999 would take gigabytes).
func integral(lit string) (string, bool) {
	if len(lit) > 64 || !strings.ContainsAny(lit, ".eE") {
		return "", false
	}
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		if e, err := strconv.Atoi(strings.TrimPrefix(lit[i+1:], "+")); err != nil || e > 40 || e < -40 {
			return "", false
		}
	}
	r, ok := new(big.Rat).SetString(lit)
	if !ok || !r.IsInt() || r.Num().BitLen() > 63 {
		return "", false
	}
	if r.Sign() == 0 && strings.HasPrefix(lit, "-") {
		return "-0", true // the same number to a float field
	}
	return r.Num().String(), true
}
