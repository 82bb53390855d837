package index_test

import (
	"fmt"

	"github.com/vokter-go/vokter/index"
)

func ExampleTokenize() {
	text := "Don't panic: 東京 state-of-the-art"
	for _, tok := range index.Tokenize(text) {
		fmt.Printf("%d %q [%d:%d]\n", tok.Pos, tok.Text, tok.Start, tok.End)
	}
	// Output:
	// 0 "Don't" [0:5]
	// 1 "panic" [6:11]
	// 2 "東" [13:16]
	// 3 "京" [16:19]
	// 4 "state" [20:25]
	// 5 "of" [26:28]
	// 6 "the" [29:32]
	// 7 "art" [33:36]
}

func ExampleNewNormalizer() {
	n := index.NewNormalizer(index.Options{IgnoreCase: true, Stopwords: true, Stemming: true, Language: "en"})
	for _, text := range []string{"House of the Gods", "god house"} {
		for _, t := range n.Terms(text) {
			fmt.Printf("%s→%s;", t.Text, t.Term)
		}
		fmt.Println()
	}
	// Output:
	// House→hous;Gods→god;
	// god→god;house→hous;
}

func ExampleFilterOf() {
	n := index.NewNormalizer(index.Options{IgnoreCase: true, Stopwords: true, Stemming: true})
	diff := index.FilterOf(n.Terms("Flooding closed the old bridge"), index.DefaultFPRate)
	fmt.Println(diff.TestAll("flood", "bridg"), diff.Test("storm"))
	// Output: true false
}

func ExampleNewSignature() {
	n := index.NewNormalizer(index.Options{IgnoreCase: true})
	before := index.NewSignature(n.Terms("the river rose during the night and flooded the lower streets"), index.MinHashOptions{})
	after := index.NewSignature(n.Terms("the river rose during the night and flooded the lower streets"), index.MinHashOptions{})
	other := index.NewSignature(n.Terms("volunteers carried sandbags to the houses near the old bridge"), index.MinHashOptions{})
	fmt.Println(before.Similarity(after), before.Similarity(other) < 0.2)
	// Output: 1 true
}

func ExampleBuild() {
	ix := index.Build("Floods closed the bridge; flooding continues.", index.Options{Stemming: true, Stopwords: true})
	for _, occ := range ix.Find("flood") {
		fmt.Printf("%q at %d-%d\n", occ.Text, occ.Start, occ.End)
	}
	// Output:
	// "Floods" at 0-6
	// "flooding" at 26-34
}
