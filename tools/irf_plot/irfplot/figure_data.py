# SPDX-License-Identifier: Apache-2.0
"""What a drawn figure shows, as plain data (irf-plot --dump-data): per panel the limits, every
kernel point (true and drawn position, edge arrow) and every text with its box in pixels, so
tests check positions and labels rather than that a file exists."""


def point_data(p):
    label = p.label
    return {"kernel": p.item.label, "number": p.item.number, "role": p.role,
            "marker": p.marker, "color": p.item.color, "face": p.face, "x": p.xy[0],
            "y": p.xy[1],
            "shown": list(p.shown), "edge": list(p.edge) if p.edge else None,
            "size": p.size, "label_visible": bool(label is not None and label.get_visible())}


def text_data(text, renderer):
    box = text.get_window_extent(renderer)
    return {"text": text.get_text(), "visible": text.get_visible(),
            "box": [box.x0, box.y0, box.x1, box.y1]}


def axes_data(ax, renderer):
    return {"title": ax.get_title(), "xlim": list(ax.get_xlim()), "ylim": list(ax.get_ylim()),
            "xscale": ax.get_xscale(), "yscale": ax.get_yscale(),
            "points": [point_data(p) for p in getattr(ax, "irf_points", [])],
            "texts": [text_data(t, renderer) for t in ax.texts if t.get_text()],
            "legend": [t.get_text() for lg in ax_legends(ax) for t in lg.get_texts()]}


def ax_legends(ax):
    legends = [a for a in ax.get_children() if type(a).__name__ == "Legend"]
    return legends


def figure_data(fig):
    """The figure's panels (axes), and for the projection its rows."""
    renderer = fig.canvas.get_renderer()
    return {"axes": [axes_data(ax, renderer) for ax in fig.axes],
            "rows": getattr(fig, "irf_rows", [])}
