package diff_test

import (
	"fmt"
	"strings"

	"github.com/vokter-go/vokter/diff"
)

func ExampleCompute() {
	old := "Flood warning for the Humboldt River.\nCrest of 19.1 feet expected Monday.\n"
	new := "Flood warning for the Humboldt River.\nCrest of 19.7 feet expected Tuesday.\nStay away from the banks.\n"
	for _, d := range diff.Compute(old, new, nil) {
		fmt.Printf("%-7s %q at %d:%d\n", d.Event, d.Text, d.Start, d.End)
	}
	// Output:
	// removed "19.1" at 47:51
	// added   "19.7" at 47:51
	// removed "Monday" at 66:72
	// added   "Tuesday" at 66:73
	// added   "Stay away from the banks.\n" at 75:101
}

func ExampleDiff_Snippet() {
	old := "The river is expected to rise above flood stage by Monday evening.\n"
	new := "The river is expected to rise above major flood stage by Monday evening.\n"
	for _, d := range diff.Compute(old, new, nil) {
		fmt.Printf("%s %q: %s\n", d.Event, d.Text, d.Snippet(20))
	}
	// Output:
	// added "major ": to rise above major flood stage by
}

func ExampleSnippet() {
	text := "Minor flooding along the Humboldt River\nbetween Comus and Winnemucca is expected to continue."
	start := strings.Index(text, "Comus")
	fmt.Println(diff.Snippet(text, start, start+len("Comus"), 25))
	// Output:
	// Humboldt River between Comus and Winnemucca is
}

func ExampleApply() {
	old := "one two three"
	new := "one 2 three four"
	got, err := diff.Apply(old, diff.Compute(old, new, nil))
	fmt.Println(got, err)
	// Output:
	// one 2 three four <nil>
}
