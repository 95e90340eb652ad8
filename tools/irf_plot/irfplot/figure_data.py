# SPDX-License-Identifier: Apache-2.0
"""What a drawn figure shows, as plain data (irf-plot --dump-data): per panel the limits, every
kernel point (true and drawn position, edge arrow) and every text with its box in pixels, so
tests check positions and labels rather than that a file exists."""
from irfplot.placement import marker_polygon, text_polygon


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
            "kind": getattr(text, "irf_kind", "") or ("roof" if hasattr(text, "irf_line") else ""),
            "box": [box.x0, box.y0, box.x1, box.y1],
            "shape": [list(p) for p in text_polygon(text, renderer, pad=0)]}


def box_data(artist, renderer):
    box = artist.get_window_extent(renderer)
    return [box.x0, box.y0, box.x1, box.y1]


def axes_data(ax, renderer):
    return {"title": ax.get_title(), "xlim": list(ax.get_xlim()), "ylim": list(ax.get_ylim()),
            "xscale": ax.get_xscale(), "yscale": ax.get_yscale(),
            "points": [point_data(p) for p in getattr(ax, "irf_points", [])],
            "markers": [marker_polygon(ax, p) for p in getattr(ax, "irf_points", [])],
            "frame": [ax.bbox.x0, ax.bbox.y0, ax.bbox.x1, ax.bbox.y1],
            "texts": [text_data(t, renderer) for t in ax.texts if t.get_text()],
            "legend": [t.get_text() for lg in ax_legends(ax) for t in lg.get_texts()],
            "legend_boxes": [box_data(lg, renderer) for lg in ax_legends(ax)]}


def ax_legends(ax):
    legends = [a for a in ax.get_children() if type(a).__name__ == "Legend"]
    return legends


def figure_data(fig):
    """The figure's panels (axes), its footnotes, the box the saved image covers (pixels at
    the figure's dpi) and for the projection its rows."""
    renderer = fig.canvas.get_renderer()
    saved = fig.get_tightbbox(renderer, bbox_extra_artists=getattr(fig, "irf_extra_artists",
                                                                  None))
    return {"axes": [axes_data(ax, renderer) for ax in fig.axes],
            "footnotes": [text_data(t, renderer) for t in fig.texts
                          if getattr(t, "irf_kind", "") == "footnote"],
            "figure": [0.0, 0.0, fig.bbox.width, fig.bbox.height],
            "saved": [v * fig.dpi for v in (saved.x0, saved.y0, saved.x1, saved.y1)],
            "rows": getattr(fig, "irf_rows", [])}
