package cap

import (
	"testing"
	"time"
)

func TestSupersedes(t *testing.T) {
	t.Parallel()
	first, err := Parse(readFile(t, "testdata/alerts/oasiscap/v1dot1_appendix_adot3.xml"))
	if err != nil {
		t.Fatal(err)
	}
	update, err := Parse(readFile(t, "testdata/alerts/oasiscap/v1dot2_appendix_adot3.xml"))
	if err != nil {
		t.Fatal(err)
	}
	// The 1.2 appendix update references the first report of the 1.1
	// appendix earthquake (whose own document was sent later, as .1 again).
	first.Sent = time.Date(2003, 6, 11, 20, 30, 0, 0, time.FixedZone("", -7*3600))
	if !update.Supersedes(first) || !update.Refers(first) {
		t.Errorf("%s does not supersede %s", update.Key(), first.Key())
	}
	if first.Supersedes(update) {
		t.Error("an alert supersedes its update")
	}
	ack := *update
	ack.MsgType = MsgTypeAck
	if ack.Supersedes(first) || !ack.Refers(first) {
		t.Error("an Ack supersedes what it references")
	}
	// The same instant in another zone is the same alert.
	moved := *first
	moved.Sent = first.Sent.UTC()
	if !update.Supersedes(&moved) || moved.Key() != first.Key() {
		t.Error("references depend on the zone of sent")
	}
	other := *first
	other.Identifier = "TRI13970876.9"
	if update.Supersedes(&other) {
		t.Error("supersedes an alert it does not reference")
	}
	if got, want := first.Key(), "trinet@caltech.edu,TRI13970876.1,2003-06-12T03:30:00-00:00"; got != want {
		t.Errorf("Key = %q, want %q", got, want)
	}
	if got, want := first.Ref().String(), "trinet@caltech.edu,TRI13970876.1,2003-06-11T20:30:00-07:00"; got != want {
		t.Errorf("Ref().String() = %q, want %q", got, want)
	}
}

func TestParseReference(t *testing.T) {
	t.Parallel()
	r, err := ParseReference("a@b,id-1,2003-06-11T20:30:00-07:00")
	if err != nil || r.Sender != "a@b" || r.Identifier != "id-1" || r.Sent.Hour() != 20 {
		t.Errorf("ParseReference = %+v, %v", r, err)
	}
	for _, bad := range []string{"", "a,b", "a,b,c", ",b,2003-06-11T20:30:00-07:00", "a,b,2003-06-11T20:30:00Z"} {
		if _, err := ParseReference(bad); err == nil {
			t.Errorf("ParseReference(%q) succeeded", bad)
		}
	}
}

func TestExpired(t *testing.T) {
	t.Parallel()
	sent := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		expires []time.Time // one info per entry; zero = no expires
		at      time.Time
		ttl     time.Duration
		want    bool
	}{
		{"no info, within TTL", nil, sent.Add(23 * time.Hour), DefaultTTL, false},
		{"no info, after TTL", nil, sent.Add(24 * time.Hour), DefaultTTL, true},
		{"info expires later", []time.Time{sent.Add(48 * time.Hour)}, sent.Add(30 * time.Hour), DefaultTTL, false},
		{"info expired", []time.Time{sent.Add(time.Hour)}, sent.Add(2 * time.Hour), DefaultTTL, true},
		{"one info still live", []time.Time{sent.Add(time.Hour), sent.Add(5 * time.Hour)}, sent.Add(2 * time.Hour), DefaultTTL, false},
		{"info without expires uses TTL", []time.Time{sent.Add(time.Hour), {}}, sent.Add(2 * time.Hour), 3 * time.Hour, false},
		{"short TTL", []time.Time{{}}, sent.Add(2 * time.Hour), time.Hour, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &Alert{Sent: sent}
			for _, e := range tt.expires {
				a.Infos = append(a.Infos, Info{Expires: e})
			}
			if got := a.ExpiredTTL(tt.at, tt.ttl); got != tt.want {
				t.Errorf("ExpiredTTL = %v, want %v", got, tt.want)
			}
			if tt.ttl == DefaultTTL && a.Expired(tt.at) != tt.want {
				t.Errorf("Expired = %v, want %v", !tt.want, tt.want)
			}
		})
	}
}
