package job

import (
	"container/list"
	"context"
	"sync"

	"github.com/vokter-go/vokter/store"
)

// matcherCacheSize bounds the compiled matchers kept between checks: the
// busiest URLs keep theirs, the others rebuild theirs from the store.
const matcherCacheSize = 1024

// matcherCache is a least-recently-used cache of matchers by URL. An entry
// is valid for one cluster generation, subscription version and language.
type matcherCache struct {
	mu    sync.Mutex
	size  int
	order *list.List // of *cachedMatcher, most recent first
	byURL map[string]*list.Element
}

type cachedMatcher struct {
	url       string
	gen, subs uint64
	m         *matcher
}

func newMatcherCache(size int) *matcherCache {
	return &matcherCache{size: size, order: list.New(), byURL: make(map[string]*list.Element)}
}

func (c *matcherCache) get(url string, gen, subs uint64, lang string) *matcher {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byURL[url]
	if !ok {
		return nil
	}
	cm := e.Value.(*cachedMatcher)
	if cm.gen != gen || cm.subs != subs || cm.m.lang != lang {
		return nil
	}
	c.order.MoveToFront(e)
	return cm.m
}

func (c *matcherCache) put(url string, gen, subs uint64, m *matcher) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byURL[url]; ok {
		e.Value = &cachedMatcher{url: url, gen: gen, subs: subs, m: m}
		c.order.MoveToFront(e)
		return
	}
	c.byURL[url] = c.order.PushFront(&cachedMatcher{url: url, gen: gen, subs: subs, m: m})
	if c.order.Len() > c.size {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byURL, last.Value.(*cachedMatcher).url)
	}
}

// matcher returns the matcher of c's subscriptions for a document in
// language lang: the cached one while the subscriptions are unchanged, or
// one built from the store.
func (m *Manager) matcher(ctx context.Context, c *cluster, lang string) (*matcher, error) {
	if mt := m.matchers.get(c.URL, c.Gen, c.Subs, lang); mt != nil {
		return mt, nil
	}
	var subs []*subscription
	var gen, version uint64
	err := m.cfg.Store.View(ctx, func(tx store.Tx) error {
		b, ok, err := openBuckets(tx, m.name)
		if err != nil || !ok {
			return err
		}
		cur, err := b.getCluster(c.URL)
		if err != nil {
			return err
		}
		gen, version = cur.Gen, cur.Subs
		subs, err = b.subscriptions(c.URL)
		return err
	})
	if err != nil {
		return nil, err
	}
	mt := newMatcher(subs, lang)
	m.matchers.put(c.URL, gen, version, mt)
	return mt, nil
}
