# SPDX-License-Identifier: Apache-2.0
"""Kernel points and text labels of a panel, placed once the axes limits are known: points
outside the limits are drawn at the edge with an arrow, points that coincide get nested rings,
and each point carries its kernel's number (placed by placement.place_labels)."""
import math

EDGE_MARKERS = {(0, 1): "^", (0, -1): "v", (1, 0): ">", (-1, 0): "<"}
COINCIDE_PX = 6.0
SAME_LABEL_PX = 18.0


class Point:
    """One kernel point: true data position, where it is drawn, and how."""

    def __init__(self, item, xy, marker, face, size, role):
        self.item, self.xy, self.marker, self.face = item, xy, marker, face
        self.size, self.role = size, role
        self.shown, self.edge, self.label = xy, None, None
        self.zorder, self.crowded = 5, False


def add_point(ax, item, xy, marker, face, size, role):
    """Records a point; render() draws it (after the limits are set)."""
    if not hasattr(ax, "irf_points"):
        ax.irf_points = []
    ax.irf_points.append(Point(item, xy, marker, face, size, role))
    return ax.irf_points[-1]


def add_arrow(ax, item, before, after):
    """Records a before -> after arrow between two recorded points (compare mode)."""
    if not hasattr(ax, "irf_arrows"):
        ax.irf_arrows = []
    ax.irf_arrows.append((item, before, after))


def clamp_to_axes(ax, point):
    """Moves a point outside the limits onto the edge (log axes: 2% inside) and notes which."""
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    x, y = point.xy
    # 3% of the (log) span inside, so the arrow head stays within the frame, clear of the title.
    xin, yin = (x1 / x0) ** 0.03, (y1 / y0) ** 0.03
    dx = 1 if x > x1 else -1 if x < x0 else 0
    dy = 1 if y > y1 else -1 if y < y0 else 0
    if dx or dy:
        x = x1 / xin if dx > 0 else x0 * xin if dx < 0 else x
        y = y1 / yin if dy > 0 else y0 * yin if dy < 0 else y
        point.shown, point.edge = (x, y), (dx, dy)


def ring_sizes(ax, points):
    """Points drawn at (nearly) the same place get growing sizes, the largest behind, so every
    marker stays visible as a ring around the next."""
    seen = []
    for p in points:
        where = ax.transData.transform(p.shown)
        peers = [q for q, w in seen if math.dist(w, where) < COINCIDE_PX]
        p.size *= 1.0 + 0.9 * len(peers)
        p.zorder = 5 - 0.1 * len(peers)
        p.crowded = bool(peers)
        for q in peers:
            q.crowded = True
        seen.append((p, where))


def draw_points(ax, points):
    for p in points:
        if p.edge:
            marker = EDGE_MARKERS.get((p.edge[0], 0) if p.edge[0] else (0, p.edge[1]), "^")
            ax.scatter(*p.shown, marker=marker, s=p.size * 1.3, facecolors=p.item.color,
                       edgecolors="black", linewidths=0.8, zorder=p.zorder, clip_on=False)
        elif p.face == "none":
            # Hollow (regions): the outline in the item's colour, behind the kernels' markers.
            ax.scatter(*p.shown, marker=p.marker, s=p.size, facecolors="none",
                       edgecolors=p.item.color, linewidths=1.8, zorder=min(p.zorder, 3))
        else:
            # Filled markers in a pile get a white rim, so a marker of the same colour on top
            # of another (one kernel's L1/L2/HBM at one point) still shows its shape.
            rim = "white" if p.crowded and p.face != "white" else p.item.color
            ax.scatter(*p.shown, marker=p.marker, s=p.size, facecolors=p.face,
                       edgecolors=rim, linewidths=1.4 if p.face != "white" else 1.2,
                       alpha=0.6 if p.role == "before" else 1.0, zorder=p.zorder)


def render(ax):
    """Draws the recorded points and arrows, then numbers the points."""
    points = getattr(ax, "irf_points", [])
    for p in points:
        clamp_to_axes(ax, p)
    ring_sizes(ax, points)
    draw_points(ax, points)
    for item, before, after in getattr(ax, "irf_arrows", []):
        ax.annotate("", xy=after.shown, xytext=before.shown, zorder=4,
                    arrowprops={"arrowstyle": "-|>", "color": item.color, "lw": 1.4,
                                "shrinkA": 4, "shrinkB": 5})
    labelled = []
    for p in points:
        where = ax.transData.transform(p.shown)
        # One number per cluster of a kernel's points: three level markers a few pixels
        # apart need one label, not three crowding each other.
        if any(q.item is p.item and math.dist(w, where) < SAME_LABEL_PX for q, w in labelled):
            continue
        if p.role != "before" and p.item.number:
            labelled.append((p, where))
            p.label = ax.text(*p.shown, str(p.item.number), fontsize=7, color=p.item.color,
                              fontweight="bold", zorder=6, clip_on=False)
            p.label.irf_kind = "dot"
            p.label.irf_anchor = p.shown
