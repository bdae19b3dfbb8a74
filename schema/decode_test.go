package schema

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestNormalizeInputIntegralNumbers(t *testing.T) {
	capture, _ := Lookup("capture")
	for in, want := range map[string]string{
		`{"pane_id":"%0","max_lines":1e3}`:         `{"pane_id":"%0","max_lines":1000}`,
		`{"pane_id":"%0","max_lines":10.0}`:        `{"pane_id":"%0","max_lines":10}`,
		`{"pane_id":"%0", "max_lines" : 1.5E+1 }`:  `{"pane_id":"%0", "max_lines" : 15 }`,
		`{"pane_id":"%0","max_lines":10.5}`:        `{"pane_id":"%0","max_lines":10.5}`, // not an integer: the validator says so
		`{"pane_id":"%0","max_lines":1e999999999}`: `{"pane_id":"%0","max_lines":1e999999999}`,
		`{"pane_id":"1e3","max_lines":200}`:        `{"pane_id":"1e3","max_lines":200}`, // strings untouched
		`not json 1e3`:                             `not json 1e3`,
	} {
		got, err := NormalizeInput(capture, []byte(in))
		if err != nil || string(got) != want {
			t.Errorf("NormalizeInput(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	// after it, integral numbers decode into int fields
	got, err := NormalizeInput(capture, []byte(`{"pane_id":"%0","max_lines":1e3}`))
	if err != nil || ValidateInput(capture, got) != nil {
		t.Fatalf("1e3: %s %v", got, err)
	}
	var in CaptureInput
	if err := json.Unmarshal(got, &in); err != nil || in.MaxLines != 1000 {
		t.Errorf("decoded %+v, %v", in, err)
	}
	ascii, _ := Lookup("send_ascii")
	if got, err := NormalizeInput(ascii, []byte(`{"pane_id":"%0","codes":[1.04e2,105,2E1]}`)); err != nil || string(got) != `{"pane_id":"%0","codes":[104,105,20]}` {
		t.Errorf("codes: %s %v", got, err)
	}
}

func TestNormalizeInputRefusesLoneSurrogates(t *testing.T) {
	send, _ := Lookup("send_text")
	for in, field := range map[string]string{
		`{"pane_id":"%0","text":"\ud800"}`:                  "text",
		`{"pane_id":"%0","text":"a\udc00b"}`:                "text",
		`{"pane_id":"%0","text":"\ud83d x"}`:                "text",
		`{"pane_id":"%0","text":"\ud83d\u0041"}`:            "text",
		"{\"pane_id\":\"%0\",\"text\":\"a\xffb\"}":          "text",
		`{"pane_id":"%0","text":"ok","x\udfff":1}`:          "x\ufffd",
		`{"pane_id":"\udbff","text":"ok"}`:                  "pane_id",
		`{"pane_id":"%0","text":"ok","n":[{"a":"\udbff"}]}`: "n.0.a",
	} {
		_, err := NormalizeInput(send, []byte(in))
		var ve *ValidationError
		if !errors.As(err, &ve) || len(ve.Problems) != 1 || ve.Problems[0].Field != field {
			t.Errorf("NormalizeInput(%s) = %v; want a problem in %q", in, err, field)
		}
	}
	for _, in := range []string{
		`{"pane_id":"%0","text":"ok \ud83d\ude00 \u00e9 \\ud800 \\\ud83d\ude00"}`,
		`{"pane_id":"%0","text":"\"\\\/\b\f\n\r\t"}`,
		`{"pane_id":"%0","text":"😀 é"}`,
	} {
		if got, err := NormalizeInput(send, []byte(in)); err != nil || string(got) != in {
			t.Errorf("NormalizeInput(%s) = %s, %v; want it unchanged", in, got, err)
		}
	}
}

// Any input: no panic; a refusal names a field and is a real defect of the
// JSON; otherwise the result decodes to the same value, numbers aside.
func FuzzNormalizeInput(f *testing.F) {
	for _, s := range []string{`{"pane_id":"%0","max_lines":1e3}`, `{"text":"\ud800"}`, `{"a":[1.0,{"b":"\ud83d\ude00"}]}`, `[`, `"x"`, `1e3`, `{"a":1e400}`} {
		f.Add(s)
	}
	send, _ := Lookup("send_text")
	f.Fuzz(func(t *testing.T, in string) {
		got, err := NormalizeInput(send, []byte(in))
		if err != nil {
			if !strings.Contains(err.Error(), "UTF") && !strings.Contains(err.Error(), "nested deeper") {
				t.Fatalf("%q: %v", in, err)
			}
			return
		}
		var a, b any
		if json.Unmarshal([]byte(in), &a) != nil {
			return
		}
		if err := json.Unmarshal(got, &b); err != nil {
			t.Fatalf("%q became %q, which does not decode: %v", in, got, err)
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Fatalf("%q became %q: %s != %s", in, got, ja, jb)
		}
	})
}

// CheckShape counts a string's decoded bytes: 1 MiB of text given as
// escapes passes, a byte more does not.
func TestCheckShapeStrings(t *testing.T) {
	emoji := strings.Repeat(`\ud83d\ude00`, MaxText/4) // 4 bytes each when decoded
	for _, c := range []struct {
		in string
		ok bool
	}{
		{`{"text":"` + emoji + `"}`, true},
		{`{"text":"` + emoji + `x"}`, false},
		{`{"text":"` + strings.Repeat(`\u00e9`, MaxText/2) + `"}`, true},
		{`{"text":"` + strings.Repeat("a", MaxText) + `"}`, true},
		{`{"text":"` + strings.Repeat("a", MaxText+1) + `"}`, false},
		{`{"a":` + strings.Repeat("[", MaxJSONDepth) + strings.Repeat("]", MaxJSONDepth) + `}`, false},
		{`{"a":"` + strings.Repeat("[", 1000) + `"}`, true},
	} {
		if err := CheckShape([]byte(c.in)); (err == nil) != c.ok {
			t.Errorf("CheckShape(%.40q... %d bytes) = %v; want ok %v", c.in, len(c.in), err, c.ok)
		}
	}
}
