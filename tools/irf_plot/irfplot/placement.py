# SPDX-License-Identifier: Apache-2.0
"""Where a panel's texts go once its limits are known (issue 53 item 8): every label is checked
as its drawn shape (a slanted roof label as a slanted box) against the labels placed before it,
the kernels' markers and the other ceiling lines, and moves to the first free place among its
candidates. A roof label is never hidden (with no free place it takes the least crowded one); a
point number or a kernel's FMA-mix label with no free place is hidden and reported in the
figure data. Footnotes
go below the panels, wrapped to the figure's width."""
import math

PAD = 1.5
DOT_OFFSETS = [(5, 4), (5, -13), (-13, 4), (-13, -13), (-4, 8), (-4, -18), (8, -4), (-18, -4)]
SLOPE_POSITIONS = 24


def box_polygon(box, pad=PAD):
    return [(box.x0 - pad, box.y0 - pad), (box.x1 + pad, box.y0 - pad),
            (box.x1 + pad, box.y1 + pad), (box.x0 - pad, box.y1 + pad)]


def text_polygon(text, renderer, pad=PAD):
    """The text's drawn outline in display pixels: its box, turned with it when slanted (the
    axis-aligned box of a slanted label covers a wide band beside it)."""
    angle = text.get_rotation() % 180.0
    if min(angle % 90.0, 90.0 - angle % 90.0) < 0.5:
        return box_polygon(text.get_window_extent(renderer), pad)
    text.set_rotation(0)
    box = text.get_window_extent(renderer)
    text.set_rotation(angle)
    ax0, ay0 = text.get_transform().transform(text.get_position())
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return [(ax0 + (x - ax0) * c - (y - ay0) * s, ay0 + (x - ax0) * s + (y - ay0) * c)
            for x, y in box_polygon(box, pad)]


def _normals(poly):
    count = len(poly) if len(poly) > 2 else 1
    for i in range(count):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % len(poly)]
        yield y0 - y1, x1 - x0


def polygons_overlap(a, b):
    """True when two convex polygons (or a polygon and a segment) share interior points
    (separating axis test)."""
    if (max(p[0] for p in a) <= min(p[0] for p in b) or max(p[0] for p in b) <= min(p[0] for p in a)
            or max(p[1] for p in a) <= min(p[1] for p in b)
            or max(p[1] for p in b) <= min(p[1] for p in a)):
        return False
    for nx, ny in list(_normals(a)) + list(_normals(b)):
        pa = [x * nx + y * ny for x, y in a]
        pb = [x * nx + y * ny for x, y in b]
        if max(pa) <= min(pb) or max(pb) <= min(pa):
            return False
    return True


def marker_polygon(ax, point):
    """A drawn marker's square in display pixels (scatter size is an area in points^2)."""
    x, y = ax.transData.transform(point.shown)
    r = math.sqrt(point.size) * ax.figure.dpi / 72.0 / 2.0
    return [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]


def line_segments(ax):
    """[(line, its display-pixel segments)] of the panel's visible lines."""
    out = []
    for line in ax.lines:
        if not line.get_visible():
            continue
        pts = line.get_transform().transform(line.get_xydata())
        out.append((line, [[tuple(p), tuple(q)] for p, q in zip(pts, pts[1:])
                           if all(math.isfinite(v) for v in (*p, *q))]))
    return out


def inside(poly, box):
    return all(box.x0 <= x <= box.x1 and box.y0 <= y <= box.y1 for x, y in poly)


class Panel:
    """What a panel's labels must avoid: the shapes placed so far, the markers, the lines."""

    def __init__(self, ax, renderer, markers):
        self.ax, self.renderer = ax, renderer
        self.placed, self.markers = [], markers
        self.lines = line_segments(ax)

    def clashes(self, poly, own_line=None, lines=True, frame=True):
        """How many shapes `poly` overlaps (lines count as fractions: crossing a line is
        better than covering a label or a marker); None when outside the axes."""
        if frame and not inside(poly, self.ax.bbox):
            return None
        hits = sum(polygons_overlap(poly, o) for o in self.placed + self.markers)
        if lines:
            hits += 0.1 * sum(polygons_overlap(poly, s) for line, segments in self.lines
                              if line is not own_line for s in segments)
        return hits

    def best(self, text, candidates, own_line):
        """Puts `text` at the first candidate (a callable that positions it) with no clash,
        else the least crowded one; returns its shape."""
        scored = []
        for move in candidates:
            move()
            poly = text_polygon(text, self.renderer)
            hits = self.clashes(poly, own_line)
            if hits == 0:
                return poly
            if hits is not None:
                scored.append((hits, len(scored), move))
        if scored:
            min(scored)[2]()
        else:
            candidates[0]()
        return text_polygon(text, self.renderer)


def slope_candidates(ax, text, peak, rate):
    """Places along a bandwidth line, left of its ridge: above the line, then below it."""
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    low, high = max(x0, y0 / rate), min(peak / rate, x1, y1 / rate)
    if not low < high:
        return []
    default = max(peak / rate / 25.0, x0 * 1.5, 2.5 * y0 / rate)
    xs = [low * (high / low) ** (i / SLOPE_POSITIONS) for i in range(SLOPE_POSITIONS)]
    xs.sort(key=lambda x: abs(math.log(x / default)))
    p1, p2 = ax.transData.transform([(low, low * rate), (low * 2, low * 2 * rate)])
    angle = math.degrees(math.atan2(p2[1] - p1[1], p2[0] - p1[0]))
    normal = (-math.sin(math.radians(angle)), math.cos(math.radians(angle)))
    to_data = ax.transData.inverted()

    def at(x, side):
        def move():
            px, py = ax.transData.transform((x, x * rate))
            text.set_position(to_data.transform((px + side * 2 * normal[0],
                                                 py + side * 2 * normal[1])))
            text.set_rotation(angle)
            text.set_va("bottom" if side > 0 else "top")
        return move
    return [at(x, side) for side in (1, -1) for x in xs]


def place_slope_labels(panel):
    """Writes each bandwidth label along its line (draw_bandwidth recorded them)."""
    ax = panel.ax
    for peak, rate, label, line in getattr(ax, "irf_slope_labels", []):
        text = ax.text(0, 0, label, fontsize=8, color="#444444", rotation_mode="anchor",
                       ha="left", va="bottom")
        text.irf_kind, text.irf_line = "roof", line
        moves = slope_candidates(ax, text, peak, rate)
        if not moves:
            text.remove()  # the line is outside the panel
            continue
        ridge_x = ax.transData.transform((peak / rate, peak))[0]
        # Only the slanted part: a label past the ridge would lie along the flat roof.
        ok = []
        for move in moves:
            move()
            if max(p[0] for p in text_polygon(text, panel.renderer)) <= ridge_x:
                ok.append(move)
        panel.placed.append(panel.best(text, ok or moves[:1], line))


def shift_candidates(ax, text):
    """Display-pixel shifts to try: around the dot for point numbers; along and across its line
    for a ceiling label."""
    if getattr(text, "irf_kind", "") == "dot":
        return [(dx * s, dy * s) for s in (1, 2, 3, 4) for dx, dy in DOT_OFFSETS]
    across = [(0, 0)] + [(0, sign * 11 * k) for k in range(1, 8) for sign in (1, -1)]
    along = [(sign * 60 * k, dy) for k in range(1, 6) for sign in (-1, 1) for _, dy in across[:3]]
    return across + along


def place_texts(panel):
    """The panel's other data-anchored texts, ceiling labels before point numbers."""
    ax = panel.ax
    texts = sorted((t for t in ax.texts if t.get_text() and t.get_visible()
                    and t.get_transform() == ax.transData
                    and getattr(t, "irf_kind", "") != "roof"),
                   key=lambda t: getattr(t, "irf_kind", "") == "dot")
    to_data = ax.transData.inverted()
    for text in texts:
        anchor = getattr(text, "irf_anchor", None) or text.get_position()
        origin = ax.transData.transform(anchor)

        def shift(dx, dy, text=text, origin=origin):
            return lambda: text.set_position(to_data.transform((origin[0] + dx, origin[1] + dy)))
        moves = [shift(dx, dy) for dx, dy in shift_candidates(ax, text)]
        if getattr(text, "irf_kind", "") not in ("dot", "mix"):
            # Its own line counts too: a shift across it would strike the label through.
            panel.placed.append(panel.best(text, moves, None))
            continue
        if not place_dot(panel, text, moves):
            text.set_position(anchor)
            text.set_visible(False)


def place_dot(panel, text, moves):
    """A point number (or a kernel's FMA-mix label, inside the axes) at the first place clear
    of labels, markers and lines, else the first clear of labels and markers; False when there
    is none."""
    mix = getattr(text, "irf_kind", "") == "mix"
    for lines in (True, False):
        for move in moves:
            move()
            poly = text_polygon(text, panel.renderer)
            if panel.clashes(poly, getattr(text, "irf_line", None), lines, frame=mix) == 0:
                panel.placed.append(poly)
                return True
    return False


NOTE_HEIGHTS = (0.2, 0.12, 0.28, 0.36, 0.05, 0.45, 0.55, 0.65, 0.75, 0.85)


def place_notes(panel):
    """A panel's notes (why nothing is drawn, centred in the axes) after its labels, at the
    first height that covers no label or marker; the roof labels, placed before, keep their
    places (a note over the wall labels hid them on an A100 import)."""
    ax = panel.ax
    for text in [t for t in ax.texts if getattr(t, "irf_kind", "") == "note"
                 and t.get_visible()]:
        x = text.get_position()[0]

        def at(y, text=text):
            return lambda: text.set_position((x, y))
        panel.placed.append(panel.best(text, [at(y) for y in NOTE_HEIGHTS], None))


def place_labels(ax, renderer):
    """Places every label of a panel whose points marks.render() has drawn."""
    panel = Panel(ax, renderer, [marker_polygon(ax, p) for p in getattr(ax, "irf_points", [])])
    place_slope_labels(panel)
    place_texts(panel)
    place_notes(panel)


def wrap_to(text, width_px, renderer, fontsize):
    """`text` broken at spaces into lines no wider than `width_px` on `renderer`."""
    from matplotlib.font_manager import FontProperties
    font = FontProperties(size=fontsize)
    lines = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            trial = f"{line} {word}" if line else word
            if line and renderer.get_text_width_height_descent(trial, font, ismath=False)[0] \
                    > width_px:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return "\n".join(lines)


def add_footnote(fig, text):
    """Records a footnote; draw_footnotes() writes it below the panels."""
    if text:
        fig.irf_footnotes = getattr(fig, "irf_footnotes", []) + [text]


def draw_footnotes(fig, renderer, fontsize=8):
    """The figure's footnotes under its lowest axis label, wrapped to the width from the first
    panel's left edge to the figure's right edge, so none runs past the image."""
    notes = getattr(fig, "irf_footnotes", [])
    if not notes:
        return
    left = min(ax.get_position().x0 for ax in fig.axes)
    bottom = min(ax.get_tightbbox(renderer).y0 for ax in fig.axes)
    width = fig.bbox.width * (1.0 - left) - 8
    text = wrap_to("\n".join(notes), width, renderer, fontsize)
    note = fig.text(left, (bottom - 4) / fig.bbox.height, text, fontsize=fontsize,
                    color="#666666", ha="left", va="top")
    note.irf_kind = "footnote"
    fig.irf_extra_artists = getattr(fig, "irf_extra_artists", []) + [note]
