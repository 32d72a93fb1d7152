package tasks

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"testing"
	"time"
	_ "time/tzdata" // the DST test needs a real zone on any machine
)

// near reports whether c is within tol of want on every channel.
func near(c color.Color, want color.RGBA, tol int) bool {
	r, g, b, _ := c.RGBA()
	d := func(x uint32, y uint8) bool {
		v := int(x>>8) - int(y)
		return v >= -tol && v <= tol
	}
	return d(r, want.R) && d(g, want.G) && d(b, want.B)
}

func decodeChart(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the chart is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != chartWidthPx || b.Dy() != chartHeightPx {
		t.Fatalf("chart is %dx%d, want %dx%d", b.Dx(), b.Dy(), chartWidthPx, chartHeightPx)
	}
	return img
}

func TestMoodChartPlotsEveryLoggedPoint(t *testing.T) {
	loc := time.FixedZone("UTC+13", 13*3600)
	from := time.Date(2026, 11, 18, 0, 0, 0, 0, loc)
	entries := []MoodEntry{
		{Score: 2, At: from.Add(8 * time.Hour)},
		{Score: 8, At: from.AddDate(0, 0, 3).Add(23 * time.Hour)}, // late in the day, still day 3
		{Score: 0, At: from.AddDate(0, 0, 5).Add(7 * time.Hour)},
		{Score: 10, At: from.AddDate(0, 0, 5).Add(21 * time.Hour)}, // two on one day
		{Score: 5, At: from.AddDate(0, 0, 6).Add(12 * time.Hour)},
	}
	c, err := newTrendChart(entries, from, 7, loc)
	if err != nil {
		t.Fatal(err)
	}
	data, err := c.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img := decodeChart(t, data)

	want := [][2]float64{{0, 2}, {3, 8}, {5, 0}, {5, 10}, {6, 5}}
	if len(c.points) != len(want) {
		t.Fatalf("chart has %d points, want %d", len(c.points), len(want))
	}
	for i, w := range want {
		if c.points[i].X != w[0] || c.points[i].Y != w[1] {
			t.Fatalf("point %d = %v, want day %v score %v", i, c.points[i], w[0], w[1])
		}
		x, y := c.pixel(w[0], w[1])
		if got := img.At(x, y); !near(got, chartInk, 8) {
			t.Errorf("pixel (%d, %d) of day %v score %v is %v, want the point's colour %v", x, y, w[0], w[1], got, chartInk)
		}
	}
	// Where nothing was logged the data area is background: the sampling
	// can tell a point from no point.
	for _, empty := range [][2]float64{{1, 8.5}, {4, 1.5}, {6, 9.5}} {
		x, y := c.pixel(empty[0], empty[1])
		if got := img.At(x, y); !near(got, color.RGBA{R: 0xff, G: 0xff, B: 0xff}, 0) {
			t.Errorf("pixel (%d, %d) at day %v score %v is %v, want white background", x, y, empty[0], empty[1], got)
		}
	}
	// The y axis has fixed limits: 0 sits below 10 by the data area's
	// height, whatever was logged.
	_, y0 := c.pixel(0, 0)
	_, y10 := c.pixel(0, 10)
	if y0-y10 < chartHeightPx/2 {
		t.Errorf("scores 0 and 10 are %d pixels apart, want most of the chart's height", y0-y10)
	}
}

func TestMoodChartIsNotBlankAndHasItsAxes(t *testing.T) {
	from := time.Date(2026, 10, 26, 0, 0, 0, 0, time.UTC)
	c, err := newTrendChart([]MoodEntry{{Score: 7, At: from.AddDate(0, 0, 29)}}, from, 30, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	data, err := c.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img := decodeChart(t, data)
	ink, dark := 0, 0
	for y := range chartHeightPx {
		for x := range chartWidthPx {
			p := img.At(x, y)
			switch {
			case near(p, chartInk, 8):
				ink++
			case near(p, color.RGBA{}, 60):
				dark++ // text, axes and ticks
			}
		}
	}
	if ink < 50 {
		t.Errorf("%d pixels in the point colour, want a visible point", ink)
	}
	if dark < 800 {
		t.Errorf("%d dark pixels, want the title, axis labels and ticks drawn", dark)
	}
	if ticks := (dayTicks{from: from, days: 30, loc: time.UTC}).Ticks(0, 0); ticks[29].Label != "24 Nov" {
		t.Errorf("the last day's tick is %q, want today labelled (24 Nov)", ticks[29].Label)
	}
}

func TestMoodChartRefusesAnEmptyWindow(t *testing.T) {
	from := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	// An entry outside the window draws nothing.
	if _, err := newTrendChart([]MoodEntry{{Score: 5, At: from.AddDate(0, 0, -1)}}, from, 7, time.UTC); err == nil {
		t.Fatal("newTrendChart with no entry in the window succeeded, want an error")
	}
}

func TestDayIndexCountsCalendarDaysAcrossDaylightSaving(t *testing.T) {
	loc, err := time.LoadLocation("Europe/Dublin")
	if err != nil {
		t.Fatal(err)
	}
	from := time.Date(2026, 10, 20, 0, 0, 0, 0, loc) // clocks go back on 25 Oct
	at := time.Date(2026, 10, 30, 0, 30, 0, 0, loc)
	if got := dayIndex(from, at, loc); got != 10 {
		t.Fatalf("dayIndex = %d, want 10", got)
	}
}

func BenchmarkMoodChart(b *testing.B) {
	from := time.Date(2026, 8, 26, 0, 0, 0, 0, time.UTC)
	for _, days := range []int{7, 30, 90} {
		var entries []MoodEntry
		for d := range days {
			entries = append(entries,
				MoodEntry{Score: d % 11, At: from.AddDate(0, 0, d).Add(9 * time.Hour)},
				MoodEntry{Score: (d * 7) % 11, At: from.AddDate(0, 0, d).Add(21 * time.Hour)})
		}
		b.Run(fmt.Sprintf("days=%d", days), func(b *testing.B) {
			for b.Loop() {
				c, err := newTrendChart(entries, from, days, time.UTC)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := c.PNG(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
