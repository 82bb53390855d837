module github.com/vokter-go/vokter

go 1.25.0
