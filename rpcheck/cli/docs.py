"""``rpcheck docs``: write (or with ``--check`` compare) the Markdown pages of the registry."""

from __future__ import annotations

from ..report import markdown
from ._base import EXIT_OK, EXIT_UNEXPECTED
from ._checks import check_out_dir

NAME = "docs"


def setup_arguments(subparsers):
    p = subparsers.add_parser(
        NAME,
        help="write the Markdown pages of the registry: DIR/<paper>.md per paper and DIR/index.md",
    )
    p.add_argument("--out", default="docs/papers", metavar="DIR", help="output directory. Default: %(default)r")
    p.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 and name the pages that differ from a fresh rendering",
    )
    return p


def run(args):
    """Write (or with --check compare) docs/papers: exit 1 when --check finds stale pages."""
    pages = markdown.render_pages()
    if args.check:
        stale = markdown.stale_pages(args.out, pages)
        if stale:
            print(
                f"{len(stale)} page(s) in {args.out} differ from the registry: {', '.join(stale)}; "
                f"regenerate with `rpcheck docs --out {args.out}`"
            )
            return EXIT_UNEXPECTED
        print(f"{len(pages)} pages in {args.out} are up to date")
        return EXIT_OK
    check_out_dir(args.out, "--out")
    written = markdown.write_pages(args.out, pages)
    print(f"wrote {len(written)} pages to {args.out}: {', '.join(p.name for p in written)}")
    return EXIT_OK
