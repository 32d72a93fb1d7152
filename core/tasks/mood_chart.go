package tasks

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// The mood chart's size in pixels, and the resolution it is drawn at.
const (
	chartWidthPx  = 800
	chartHeightPx = 400
	chartDPI      = 96
)

// The mood chart's colours: the points and line stand out from the grid.
var (
	chartInk  = color.RGBA{R: 0x1f, G: 0x5f, B: 0xbf, A: 0xff}
	chartGrid = color.RGBA{R: 0xdd, G: 0xdd, B: 0xdd, A: 0xff}
)

// trendChart is a drawn-to-order mood trend: the days on the x axis (day 0
// is the first of the window, in the person's time zone), the score on the
// y axis from 0 to 10, every entry a point, and a line through each day's
// average.
type trendChart struct {
	p *plot.Plot
	// points are the entries in data coordinates (day, score).
	points plotter.XYs
}

// newTrendChart lays out the chart of entries over the days days from
// from (midnight in loc).
func newTrendChart(entries []MoodEntry, from time.Time, days int, loc *time.Location) (*trendChart, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Your mood over the last %d days", days)
	p.Title.TextStyle.Font.Size = vg.Points(15)
	p.X.Label.Text = "Day"
	p.Y.Label.Text = "Mood (0 = worst, 10 = best)"
	p.X.Min, p.X.Max = -0.5, float64(days)-0.5
	p.Y.Min, p.Y.Max = MoodMin, MoodMax
	p.Y.Tick.Marker = scoreTicks{}
	p.X.Tick.Marker = dayTicks{from: from, days: days, loc: loc}
	p.BackgroundColor = color.White

	grid := plotter.NewGrid()
	grid.Vertical.Color = nil // days are read off the ticks; a vertical grid would crowd 90 days
	grid.Horizontal.Color, grid.Horizontal.Width = chartGrid, vg.Points(0.75)
	p.Add(grid)

	pts := make(plotter.XYs, 0, len(entries))
	var means plotter.XYs
	sum, n, lastDay := 0, 0, -1
	for _, e := range entries {
		d := dayIndex(from, e.At, loc)
		if d < 0 || d >= days {
			continue
		}
		pts = append(pts, plotter.XY{X: float64(d), Y: float64(e.Score)})
		if d != lastDay && n > 0 {
			means = append(means, plotter.XY{X: float64(lastDay), Y: float64(sum) / float64(n)})
			sum, n = 0, 0
		}
		sum, n, lastDay = sum+e.Score, n+1, d
	}
	if n > 0 {
		means = append(means, plotter.XY{X: float64(lastDay), Y: float64(sum) / float64(n)})
	}
	if len(pts) == 0 {
		return nil, fmt.Errorf("no entries in the %d days from %s", days, from.Format(time.DateOnly))
	}
	line, err := plotter.NewLine(means)
	if err != nil {
		return nil, fmt.Errorf("daily averages: %w", err)
	}
	line.Color, line.Width = chartInk, vg.Points(2)
	dots, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, fmt.Errorf("points: %w", err)
	}
	dots.Shape = draw.CircleGlyph{}
	dots.Color, dots.Radius = chartInk, vg.Points(4)
	p.Add(line, dots)
	return &trendChart{p: p, points: pts}, nil
}

// dayIndex is the day of t counted from from (midnight in loc), by the
// calendar in loc: a 23- or 25-hour day still counts one.
func dayIndex(from, t time.Time, loc *time.Location) int {
	d := dayStart(t, loc)
	return int(math.Round(d.Sub(from).Hours() / 24))
}

// canvas is a blank image canvas of the chart's size.
func chartCanvas() *vgimg.Canvas {
	w := vg.Length(chartWidthPx) * vg.Inch / chartDPI
	h := vg.Length(chartHeightPx) * vg.Inch / chartDPI
	return vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(chartDPI))
}

// PNG draws the chart as a PNG of chartWidthPx by chartHeightPx.
func (c *trendChart) PNG() ([]byte, error) {
	cv := chartCanvas()
	c.p.Draw(draw.New(cv))
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: cv}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("encode png: %w", err)
	}
	return buf.Bytes(), nil
}

// pixel is where the data point (x, y) lands in the PNG, in pixels from
// the top left: the plot's own data-to-canvas transform.
func (c *trendChart) pixel(x, y float64) (px, py int) {
	da := c.p.DataCanvas(draw.New(chartCanvas()))
	tx, ty := c.p.Transforms(&da)
	scale := float64(chartDPI) / float64(vg.Inch)
	return int(math.Round(float64(tx(x)) * scale)), chartHeightPx - int(math.Round(float64(ty(y))*scale))
}

// scoreTicks labels every even score and marks the odd ones.
type scoreTicks struct{}

// Ticks returns the y axis's ticks, 0 to 10.
func (scoreTicks) Ticks(_, _ float64) []plot.Tick {
	ts := make([]plot.Tick, 0, MoodMax-MoodMin+1)
	for s := MoodMin; s <= MoodMax; s++ {
		t := plot.Tick{Value: float64(s)}
		if s%2 == 0 {
			t.Label = strconv.Itoa(s)
		}
		ts = append(ts, t)
	}
	return ts
}

// dayTicks labels the days with their dates: every day for a week, fewer
// for longer windows, always the last (today).
type dayTicks struct {
	from time.Time
	days int
	loc  *time.Location
}

// Ticks returns the x axis's ticks, one per day, labelled at a step that
// keeps about eight labels.
func (d dayTicks) Ticks(_, _ float64) []plot.Tick {
	step := max(1, int(math.Ceil(float64(d.days)/8)))
	format := "Mon 2 Jan"
	if d.days > 7 {
		format = "2 Jan"
	}
	ts := make([]plot.Tick, 0, d.days)
	for i := range d.days {
		t := plot.Tick{Value: float64(i)}
		if (d.days-1-i)%step == 0 {
			t.Label = d.from.In(d.loc).AddDate(0, 0, i).Format(format)
		}
		ts = append(ts, t)
	}
	return ts
}
