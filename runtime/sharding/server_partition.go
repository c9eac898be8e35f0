package sharding

import (
	"math/bits"
	"slices"
	"sort"
	"strconv"
)

// PartitionSlots is the number of equal slots a Partition cuts the hash space into. It divides by
// 2, 3, 4, 5, 6 and 8, so rings of those sizes split the space exactly, and it keeps a member's shard
// selector short (at most 120 ranges, fewer once adjacent slots merge; a third of them with three
// members): the selector travels in every list and watch request's URL.
const PartitionSlots = 120

// Partition splits the 64-bit hash space of the API server's shard selectors (ServerHash) among
// members for the server-side mode: the space is cut into PartitionSlots equal slots and each slot
// goes to a member by rendezvous hashing with bounded load, so every member holds at most
// ceil(PartitionSlots/N) slots (with three members exactly a third of the space), and adding or
// removing one of N members moves about 1/N of the slots. A Partition is immutable and safe for
// concurrent use.
type Partition struct {
	members []string
	owner   [PartitionSlots]int // slot -> index into members
}

// NewPartition builds the partition of members (duplicates ignored; order does not matter).
func NewPartition(members []string) *Partition {
	sorted := slices.Clone(members)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	p := &Partition{members: sorted}
	if len(sorted) == 0 {
		return p
	}
	// Every (member, slot) pair gets a weight; taking pairs from the heaviest down, a slot goes to
	// the member of its heaviest pair that still has room. A member's weights do not depend on who
	// else is on the ring, so a change of members moves mostly the slots the newcomer outweighs or
	// the leaver held.
	type pair struct {
		weight       uint64
		member, slot int
	}
	pairs := make([]pair, 0, len(sorted)*PartitionSlots)
	for m, name := range sorted {
		for s := range PartitionSlots {
			pairs = append(pairs, pair{hash64(name + "/" + strconv.Itoa(s)), m, s})
		}
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].weight != pairs[j].weight {
			return pairs[i].weight > pairs[j].weight
		}
		return pairs[i].member < pairs[j].member
	})
	capacity := (PartitionSlots + len(sorted) - 1) / len(sorted)
	load := make([]int, len(sorted))
	assigned := 0
	for i := range p.owner {
		p.owner[i] = -1
	}
	for _, pr := range pairs {
		if p.owner[pr.slot] >= 0 || load[pr.member] == capacity {
			continue
		}
		p.owner[pr.slot] = pr.member
		load[pr.member]++
		if assigned++; assigned == PartitionSlots {
			break
		}
	}
	return p
}

// Members returns the partition's members, sorted.
func (p *Partition) Members() []string { return slices.Clone(p.members) }

// Equal reports whether p and o have the same members, and so split the space alike.
func (p *Partition) Equal(o *Partition) bool { return o != nil && slices.Equal(p.members, o.members) }

// Has reports whether member is one of p's members.
func (p *Partition) Has(member string) bool {
	_, ok := slices.BinarySearch(p.members, member)
	return ok
}

// slotOf returns the slot a hash falls in: slot s covers [s·2^64/PartitionSlots, (s+1)·2^64/PartitionSlots).
func slotOf(hash uint64) int {
	hi, _ := bits.Mul64(hash, PartitionSlots)
	return int(hi)
}

// slotStart returns where slot s begins; slotStart(PartitionSlots) is 2^64, returned as 0.
func slotStart(s int) uint64 {
	if s == 0 || s == PartitionSlots {
		return 0
	}
	// ceil(s·2^64 / PartitionSlots): the first hash whose slotOf is s.
	q, r := bits.Div64(uint64(s), 0, PartitionSlots)
	if r != 0 {
		q++
	}
	return q
}

// Owner returns the member a key with the given ServerHash belongs to, or "" if p has no members.
func (p *Partition) Owner(hash uint64) string {
	if len(p.members) == 0 {
		return ""
	}
	return p.members[p.owner[slotOf(hash)]]
}

// Ranges returns the ranges of the hash space member holds, adjacent slots merged, sorted; nil if
// member is not one of p's members. They agree with Owner.
func (p *Partition) Ranges(member string) []HashRange {
	m, ok := slices.BinarySearch(p.members, member)
	if !ok {
		return nil
	}
	var out []HashRange
	for s := 0; s < PartitionSlots; s++ {
		if p.owner[s] != m {
			continue
		}
		end := s + 1
		for end < PartitionSlots && p.owner[end] == m {
			end++
		}
		out = append(out, HashRange{Start: slotStart(s), End: slotStart(end)})
		s = end - 1
	}
	return out
}
