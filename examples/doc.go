// Package examples holds runnable programs, one per folder, that need no
// internet: run them with "go run ./examples/NAME".
package examples
