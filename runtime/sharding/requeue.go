package sharding

import "sync"

// Queue is where a guard returns the keys it could not run yet; a work queue of string keys
// (workqueue.TypedRateLimitingInterface[string]) fits.
type Queue interface {
	Add(key string)
}

// parked holds the keys one guard refused because the replica was not a member or an object's
// previous owner had not let it go. The guard reports such a key as done, so the controller's rate
// limiter is not charged for what is no fault of the key, and the replica adds it to the queue again
// the moment it may run: when membership (re)starts, when the ring or a claim changes, and after
// each renewal while the replica is a member.
type parked struct {
	queue Queue

	mu   sync.Mutex
	keys map[string]struct{}
}

func (p *parked) park(key string) {
	p.mu.Lock()
	if p.keys == nil {
		p.keys = map[string]struct{}{}
	}
	p.keys[key] = struct{}{}
	p.mu.Unlock()
}

// release adds every parked key to the queue and forgets it.
func (p *parked) release() {
	p.mu.Lock()
	keys := p.keys
	p.keys = nil
	p.mu.Unlock()
	for key := range keys {
		p.queue.Add(key)
	}
}

// newParked registers the parking of a guard feeding queue.
func (r *Replica) newParked(queue Queue) *parked {
	p := &parked{queue: queue}
	r.parkMu.Lock()
	r.parkings = append(r.parkings, p)
	r.parkMu.Unlock()
	return p
}

// requeueParked adds the keys every guard parked back to their queues, if the replica is a member.
func (r *Replica) requeueParked() {
	if !r.IsMember() {
		return
	}
	r.parkMu.Lock()
	parkings := r.parkings
	r.parkMu.Unlock()
	for _, p := range parkings {
		p.release()
	}
}
