package schema

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// duplicateKey returns the first object key that appears twice in the
// same object of the JSON value data, with the dotted path of that object
// ("" for the top level; a.3.b below it), or ok false when there is none
// (or data is not JSON: the caller reports that). encoding/json keeps the
// last of two equal keys without a word, so a caller that wrote
// {"timeout":5,"timeout":500} would never learn which one counted.
func duplicateKey(data []byte) (path, key string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var walk func(path []string) (string, string, bool, bool)
	// walk reads one value; it returns a duplicate (and true), or false,
	// and whether the input was readable at all.
	walk = func(p []string) (string, string, bool, bool) {
		tok, err := dec.Token()
		if err != nil {
			return "", "", false, false
		}
		d, isDelim := tok.(json.Delim)
		if !isDelim {
			return "", "", false, true
		}
		switch d {
		case '{':
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return "", "", false, false
				}
				k, _ := kt.(string)
				if seen[k] {
					return strings.Join(p, "."), k, true, true
				}
				seen[k] = true
				if dp, dk, found, good := walk(append(p, k)); found || !good {
					return dp, dk, found, good
				}
			}
		case '[':
			for i := 0; dec.More(); i++ {
				if dp, dk, found, good := walk(append(p, strconv.Itoa(i))); found || !good {
					return dp, dk, found, good
				}
			}
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return "", "", false, false
		}
		return "", "", false, true
	}
	path, key, ok, _ = walk(nil)
	return path, key, ok
}
