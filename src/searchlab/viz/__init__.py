"""Layer 3: pictures of problems and searches (PNG). Imports core, domains, algorithms."""

from searchlab.viz.grid_png import render_search
from searchlab.viz.image_file import IMAGE_FORMATS, image_format, save_image
from searchlab.viz.root_png import render_root

__all__ = ["IMAGE_FORMATS", "image_format", "render_root", "render_search", "save_image"]
