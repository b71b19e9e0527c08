package usage

import (
	"fmt"
	"sort"
)

// Group names a roll-up's rows.
type Group string

// The groupings GET /api/usage offers.
const (
	ByDay     Group = "day"
	BySession Group = "session"
	ByModel   Group = "model"
)

// ParseGroup checks a groupBy value; "" means ByDay.
func ParseGroup(s string) (Group, error) {
	switch g := Group(s); g {
	case "":
		return ByDay, nil
	case ByDay, BySession, ByModel:
		return g, nil
	}
	return "", fmt.Errorf("groupBy must be day, session or model, not %q", s)
}

// Row is one group's sums.
type Row struct {
	Key string `json:"key"`
	Totals
}

// Rollup sums records into rows by g, sorted by key, and their total. A
// turn counts once in the total and in its day's or session's row; by
// model, it counts once in the row of each model it used.
func Rollup(recs []Record, g Group) ([]Row, Totals) {
	rows := map[string]*Row{}
	var total Totals
	add := func(key string, t Totals) {
		r := rows[key]
		if r == nil {
			r = &Row{Key: key}
			rows[key] = r
		}
		r.Add(t)
	}
	for _, rec := range recs {
		turn := Totals{Turns: 1}
		for model, t := range rec.Models {
			if g == ByModel {
				add(model, t)
			}
			t.Turns = 0
			turn.Add(t)
		}
		total.Add(turn)
		switch g {
		case BySession:
			add(rec.Session, turn)
		case ByDay:
			add(rec.Day, turn)
		}
	}
	out := make([]Row, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, total
}
