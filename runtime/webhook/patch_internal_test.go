package webhook

import (
	"testing"
)

func TestJSONPatch(t *testing.T) {
	for _, tc := range []struct {
		name, sent, before, after, want string
	}{
		{"nothing changed", `{"a":1,"x":2}`, `{"a":1}`, `{"a":1}`, ``},
		{"replace scalar", `{"a":1}`, `{"a":1}`, `{"a":2}`, `[{"op":"replace","path":"/a","value":2}]`},
		{"replace with null", `{"a":1}`, `{"a":1}`, `{"a":null}`, `[{"op":"replace","path":"/a","value":null}]`},
		{"add with false", `{}`, `{}`, `{"b":false}`, `[{"op":"add","path":"/b","value":false}]`},
		{"arrays are replaced whole", `{"l":[1,2]}`, `{"l":[1,2]}`, `{"l":[1]}`, `[{"op":"replace","path":"/l","value":[1]}]`},
		{"escaped keys", `{"m":{}}`, `{"m":{}}`, `{"m":{"a/b~c":1}}`, `[{"op":"add","path":"/m/a~1b~0c","value":1}]`},
		{"removed by the function", `{"a":1,"b":2}`, `{"a":1,"b":2}`, `{"a":1}`, `[{"op":"remove","path":"/b"}]`},
		{"unknown to the type is kept", `{"a":1,"u":{"v":1}}`, `{"a":1}`, `{"a":2}`, `[{"op":"replace","path":"/a","value":2}]`},
		{"written by the encoding is not added", `{"m":{"n":"x"}}`, `{"m":{"n":"x","t":null}}`, `{"m":{"n":"y","t":null}}`, `[{"op":"replace","path":"/m/n","value":"y"}]`},
		{"new subtree under an unknown parent", `{}`, `{}`, `{"s":{"a":{"b":1}}}`, `[{"op":"add","path":"/s","value":{"a":{"b":1}}}]`},
		{"64-bit integers keep their digits", `{"i":9007199254740993}`, `{"i":9007199254740993}`, `{"i":9007199254740995}`, `[{"op":"replace","path":"/i","value":9007199254740995}]`},
		{"type changed", `{"a":{"b":1}}`, `{"a":{"b":1}}`, `{"a":"flat"}`, `[{"op":"replace","path":"/a","value":"flat"}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := jsonPatch([]byte(tc.sent), []byte(tc.before), []byte(tc.after))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("patch %s, want %s", got, tc.want)
			}
		})
	}
	if _, err := jsonPatch([]byte(`{`), []byte(`{}`), []byte(`{}`)); err == nil {
		t.Fatal("no error for a malformed object")
	}
}

func TestScanTypeMeta(t *testing.T) {
	for _, tc := range []struct {
		json, apiVersion, kind string
		ok                     bool
	}{
		{`{"apiVersion":"a/v1","kind":"K","spec":{}}`, "a/v1", "K", true},
		{` { "metadata" : {"name":"x,}]","labels":{"a":"}"}}, "spec":[1,{"b":"\"kind\""}], "n": -1.5e3 , "t":true,"kind" : "K", "apiVersion":"v1"}`, "v1", "K", true},
		{`{"spec":{"kind":"Inner"}}`, "", "", true},
		{`{}`, "", "", true},
		{`{"kind":"K\u0041"}`, "", "", false}, // escapes go to the decoder
		{`{"ki\u006ed":"K"}`, "", "", false},
		{`{"kind":1}`, "", "", false},
		{`[]`, "", "", false},
		{`{"kind"`, "", "", false},
		{`{"a":"unterminated`, "", "", false},
		{`{"a" 1}`, "", "", false},
		{`{"a":1 "b":2}`, "", "", false},
	} {
		apiVersion, kind, ok := scanTypeMeta([]byte(tc.json))
		if ok != tc.ok || apiVersion != tc.apiVersion || kind != tc.kind {
			t.Errorf("scanTypeMeta(%s) = %q, %q, %v; want %q, %q, %v", tc.json, apiVersion, kind, ok, tc.apiVersion, tc.kind, tc.ok)
		}
	}
	// What the scan leaves, the decoder reads.
	apiVersion, kind, err := typeMeta([]byte(`{"kind":"K\u0041","apiVersion":"v1"}`))
	if err != nil || apiVersion != "v1" || kind != "KA" {
		t.Errorf("typeMeta with an escape: %q, %q, %v", apiVersion, kind, err)
	}
	if _, _, err := typeMeta([]byte(`{"kind":1}`)); err == nil {
		t.Error("typeMeta of a numeric kind: no error")
	}
}
