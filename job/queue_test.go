package job

import (
	"errors"
	"testing"

	"github.com/reugn/go-quartz/quartz"
)

// fixedJob is a scheduled job with a given run time.
type fixedJob struct {
	detail *quartz.JobDetail
	at     int64
}

func (j fixedJob) JobDetail() *quartz.JobDetail { return j.detail }
func (j fixedJob) Trigger() quartz.Trigger      { return nil }
func (j fixedJob) NextRunTime() int64           { return j.at }

func queuedJob(name string, at int64, replace bool) fixedJob {
	opts := quartz.NewDefaultJobDetailOptions()
	opts.Replace = replace
	return fixedJob{quartz.NewJobDetailWithOptions(&checkJob{url: name}, quartz.NewJobKeyWithGroup(name, "g"), opts), at}
}

func TestJobQueue(t *testing.T) {
	t.Parallel()
	q := newJobQueue()
	for i, name := range []string{"c", "a", "d", "b"} {
		if err := q.Push(queuedJob(name, int64(10*(i+1)), false)); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Push(queuedJob("a", 5, false)); !errors.Is(err, quartz.ErrJobAlreadyExists) {
		t.Fatalf("duplicate push = %v", err)
	}
	if err := q.Push(queuedJob("d", 1, true)); err != nil { // d moves to the front
		t.Fatal(err)
	}
	if _, err := q.Remove(quartz.NewJobKeyWithGroup("c", "g")); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Get(quartz.NewJobKeyWithGroup("c", "g")); !errors.Is(err, quartz.ErrJobNotFound) {
		t.Fatalf("Get removed = %v", err)
	}
	if n, _ := q.Size(); n != 3 {
		t.Fatalf("Size = %d", n)
	}
	var order []string
	for {
		j, err := q.Pop()
		if errors.Is(err, quartz.ErrQueueEmpty) {
			break
		}
		order = append(order, j.JobDetail().JobKey().Name())
	}
	if got := order; len(got) != 3 || got[0] != "d" || got[1] != "a" || got[2] != "b" {
		t.Fatalf("pop order = %v, want [d a b]", got)
	}
	if _, err := q.Head(); !errors.Is(err, quartz.ErrQueueEmpty) {
		t.Fatalf("Head of empty = %v", err)
	}
}
