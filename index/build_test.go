package index

import (
	"testing"
)

func TestBuild(t *testing.T) {
	t.Parallel()
	const text = "Floods: the river floods the old town. Flooding again in Λάρισα, λάρισα!"
	ix := Build(text, Options{IgnoreCase: true, Stopwords: true, Stemming: true})
	tests := []struct {
		word string
		want []string // the text of each occurrence
	}{
		{"flood", []string{"Floods", "floods", "Flooding"}},
		{"FLOODED", []string{"Floods", "floods", "Flooding"}},
		{"λάρισα", []string{"Λάρισα", "λάρισα"}},
		{"the", nil}, // a stop-word
		{"absent", nil},
	}
	for _, tt := range tests {
		got := ix.Find(tt.word)
		if len(got) != len(tt.want) {
			t.Fatalf("Find(%q) = %+v, want %q", tt.word, got, tt.want)
		}
		for i, occ := range got {
			if occ.Text != tt.want[i] || text[occ.Start:occ.End] != occ.Text {
				t.Errorf("Find(%q)[%d] = %+v, want %q at its offsets", tt.word, i, occ, tt.want[i])
			}
		}
	}
	// 12 words less the stop-words the, the, again, in: flood ×3, river,
	// old, town, λάρισα ×2.
	if ix.Len() != 8 {
		t.Errorf("Len = %d, want 8", ix.Len())
	}
	if ix.Distinct() != 5 {
		t.Errorf("Distinct = %d, want 5", ix.Distinct())
	}
}
