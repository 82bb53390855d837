// Package job is the watch manager that applications embed.
//
// A [Manager] keeps one detection job (a cluster) per document URL and one
// matching job per subscription. Detection fetches the document on an
// interval, reads it to text, and diffs it against the previous snapshot;
// matching runs every subscription's keywords over the added and removed
// differences and calls the application's [Handler]. Everything is persisted
// in a [store.Store], so a restarted manager resumes every job.
package job
