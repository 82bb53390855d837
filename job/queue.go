package job

import (
	"container/heap"
	"fmt"
	"sync"

	"github.com/reugn/go-quartz/quartz"
)

// jobQueue is a go-quartz JobQueue indexed by job key. go-quartz's own
// queue scans and copies every job on each push, so scheduling n clusters
// (at start, and on every fire) costs O(n²); with the index a push, pop or
// removal costs O(log n).
type jobQueue struct {
	mu    sync.Mutex
	heap  jobHeap
	index map[string]*queued // by JobKey.String()
}

var _ quartz.JobQueue = (*jobQueue)(nil)

type queued struct {
	job quartz.ScheduledJob
	pos int // position in the heap
}

type jobHeap []*queued

func (h jobHeap) Len() int           { return len(h) }
func (h jobHeap) Less(i, j int) bool { return h[i].job.NextRunTime() < h[j].job.NextRunTime() }
func (h jobHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].pos, h[j].pos = i, j
}
func (h *jobHeap) Push(x any) {
	q := x.(*queued)
	q.pos = len(*h)
	*h = append(*h, q)
}
func (h *jobHeap) Pop() any {
	old := *h
	q := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return q
}

func newJobQueue() *jobQueue {
	return &jobQueue{index: make(map[string]*queued)}
}

// Push implements quartz.JobQueue: it adds job, replacing a job with the
// same key when the job's options say so.
func (q *jobQueue) Push(job quartz.ScheduledJob) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	key := job.JobDetail().JobKey().String()
	if old, ok := q.index[key]; ok {
		if !job.JobDetail().Options().Replace {
			return fmt.Errorf("job: %w: %s", quartz.ErrJobAlreadyExists, key)
		}
		heap.Remove(&q.heap, old.pos)
	}
	e := &queued{job: job}
	heap.Push(&q.heap, e)
	q.index[key] = e
	return nil
}

// Pop implements quartz.JobQueue.
func (q *jobQueue) Pop() (quartz.ScheduledJob, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.heap) == 0 {
		return nil, quartz.ErrQueueEmpty
	}
	e := heap.Pop(&q.heap).(*queued)
	delete(q.index, e.job.JobDetail().JobKey().String())
	return e.job, nil
}

// Head implements quartz.JobQueue.
func (q *jobQueue) Head() (quartz.ScheduledJob, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.heap) == 0 {
		return nil, quartz.ErrQueueEmpty
	}
	return q.heap[0].job, nil
}

// Get implements quartz.JobQueue.
func (q *jobQueue) Get(key *quartz.JobKey) (quartz.ScheduledJob, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if e, ok := q.index[key.String()]; ok {
		return e.job, nil
	}
	return nil, quartz.ErrJobNotFound
}

// Remove implements quartz.JobQueue.
func (q *jobQueue) Remove(key *quartz.JobKey) (quartz.ScheduledJob, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	e, ok := q.index[key.String()]
	if !ok {
		return nil, quartz.ErrJobNotFound
	}
	heap.Remove(&q.heap, e.pos)
	delete(q.index, key.String())
	return e.job, nil
}

// ScheduledJobs implements quartz.JobQueue: the jobs every matcher accepts.
func (q *jobQueue) ScheduledJobs(matchers []quartz.Matcher[quartz.ScheduledJob]) ([]quartz.ScheduledJob, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []quartz.ScheduledJob
next:
	for _, e := range q.heap {
		for _, m := range matchers {
			if !m.IsMatch(e.job) {
				continue next
			}
		}
		out = append(out, e.job)
	}
	return out, nil
}

// Size implements quartz.JobQueue.
func (q *jobQueue) Size() (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.heap), nil
}

// Clear implements quartz.JobQueue.
func (q *jobQueue) Clear() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.heap, q.index = nil, make(map[string]*queued)
	return nil
}
