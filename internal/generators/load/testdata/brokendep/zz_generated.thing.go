package brokendep

func (t *Thing) Stale() { t.Gone = 2 }
