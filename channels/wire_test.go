package channels

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"
)

var (
	wireIn = Inbound{Platform: "slack", Workspace: "T1", Conversation: Conversation{ID: "slack:T1:C9", Kind: KindChannel, ThreadID: "1700.1"},
		MessageID: "slack:T1:1700.2", DeliveryKey: "Ev01", Author: Author{ID: "slack:T1:U2", Display: "Sam", IsBot: true, PlatformAdmin: true},
		MentionsBot: true, Text: "hello", Locale: "en-GB", Edited: true, ReceivedAt: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)}
	wireOut = Outbound{Platform: "slack", Conversation: Conversation{ID: "slack:T1:D3", Kind: KindDM}, ReplyTo: "slack:T1:1700.2",
		Kind: OutCrisis, Private: true, Recipient: "slack:T1:U2", Text: "hi",
		File: &File{Name: "a.json", ContentType: "application/json", Data: []byte(`{}`)}}
)

func TestTheWireFormatNamesEveryFieldInSnakeCaseWithAVersion(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"inbound", wireIn, `{"version":1,"platform":"slack","workspace":"T1",` +
			`"conversation":{"id":"slack:T1:C9","kind":"channel","thread_id":"1700.1"},"message_id":"slack:T1:1700.2","delivery_key":"Ev01",` +
			`"author":{"id":"slack:T1:U2","display":"Sam","is_bot":true,"platform_admin":true},"mentions_bot":true,"text":"hello","locale":"en-GB",` +
			`"edited":true,"received_at":"2026-01-02T03:04:05.000000006Z"}`},
		{"outbound", wireOut, `{"version":1,"platform":"slack","conversation":{"id":"slack:T1:D3","kind":"dm","thread_id":""},` +
			`"reply_to":"slack:T1:1700.2","kind":"crisis","private":true,"recipient":"slack:T1:U2","text":"hi",` +
			`"file":{"name":"a.json","content_type":"application/json","data":"e30="}}`},
		{"outbound without a file", Outbound{Platform: "console", Kind: OutReply, Text: "x"}, `{"version":1,"platform":"console",` +
			`"conversation":{"id":"","kind":"","thread_id":""},"reply_to":"","kind":"reply","private":false,"recipient":"","text":"x"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("wire form\n got %s\nwant %s", b, tt.want)
			}
		})
	}
}

func TestTheWireFormatRoundTripsEveryField(t *testing.T) {
	b, err := json.Marshal(wireIn)
	if err != nil {
		t.Fatal(err)
	}
	var in Inbound
	if err := json.Unmarshal(b, &in); err != nil || !reflect.DeepEqual(in, wireIn) {
		t.Errorf("inbound round trip = %+v, %v; want %+v", in, err, wireIn)
	}
	if b, err = json.Marshal(wireOut); err != nil {
		t.Fatal(err)
	}
	var out Outbound
	if err := json.Unmarshal(b, &out); err != nil || !reflect.DeepEqual(out, wireOut) {
		t.Errorf("outbound round trip = %+v, %v; want %+v", out, err, wireOut)
	}
}

func TestChoicesForIsOmittedWhenEmptyAndAnOldRowWithoutItDecodes(t *testing.T) {
	yesNo := []Choice{{Label: "Yes", Text: "yes"}, {Label: "No", Text: "no"}}
	bound := Outbound{Platform: "slack", Kind: OutReply, Text: "Sure?", Choices: yesNo, ChoicesFor: "slack:T1:U2"}
	b, err := json.Marshal(bound)
	if err != nil {
		t.Fatal(err)
	}
	var back Outbound
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, bound) {
		t.Errorf("round trip of %s = %+v, %v; want %+v", b, back, err, bound)
	}
	if b, err = json.Marshal(Outbound{Platform: "slack", Kind: OutReply, Text: "Sure?", Choices: yesNo}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("choices_for")) {
		t.Errorf("wire form %s names choices_for, want it omitted when empty", b)
	}
	// A row an outbox kept from before ChoicesFor: its buttons are for anyone.
	old := `{"version":1,"platform":"slack","conversation":{"id":"slack:T1:C9","kind":"channel","thread_id":""},` +
		`"reply_to":"","kind":"reply","private":false,"recipient":"","text":"Sure?",` +
		`"choices":[{"label":"Yes","text":"yes"},{"label":"No","text":"no"}]}`
	var o Outbound
	if err := json.Unmarshal([]byte(old), &o); err != nil || o.ChoicesFor != "" || !reflect.DeepEqual(o.Choices, yesNo) {
		t.Errorf("old row = %+v, %v; want its choices and no ChoicesFor", o, err)
	}
}

func TestDecodingRefusesADocumentWithoutOrWithAnotherVersion(t *testing.T) {
	tests := []struct {
		name, doc   string
		wireVersion bool // the error wraps ErrWireVersion
	}{
		{"before version 1 (Go field names)", `{"Platform":"console","Text":"hi","Conversation":{"ID":"console::me","Kind":"dm"}}`, true},
		{"a newer version", `{"version":2,"platform":"console","text":"hi"}`, true},
		{"version 0", `{"version":0,"platform":"console"}`, true},
		{"not an object", `"hello"`, false},
		{"a field of the wrong type", `{"version":1,"text":3}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in Inbound
			errIn := json.Unmarshal([]byte(tt.doc), &in)
			var out Outbound
			errOut := json.Unmarshal([]byte(tt.doc), &out)
			for _, err := range []error{errIn, errOut} {
				if err == nil || errors.Is(err, ErrWireVersion) != tt.wireVersion {
					t.Errorf("decode %s = %v, want an error (wrapping ErrWireVersion: %v)", tt.doc, err, tt.wireVersion)
				}
			}
		})
	}
}
