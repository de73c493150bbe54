#!/usr/bin/env python3
"""A small nonogram solver in Python, as an example of a program nonobench runs as an external
solver with the `grid` output adapter.

    line-solver.py PUZZLE.non MAX_SOLUTIONS TIMEOUT_SECONDS

It reads Steve Simpson's .non format, tries the placements of each row in turn, keeps a partial
picture only while every column can still be completed, and prints each solution as rows of
`#` and `.` followed by a status word: unique, multiple, solved, contradiction or timeout.
Exponential in the worst case: meant for small puzzles.
"""
import sys
import time


def read_non(path):
    """The row and column clues of a .non file: `width` and `height` say how many lines each block holds."""
    with open(path, encoding="utf-8") as f:
        lines = [line.strip() for line in f]
    size = {}
    clues = {}
    i = 0
    while i < len(lines):
        words = lines[i].split()
        if len(words) == 2 and words[0] in ("width", "height"):
            size[words[0]] = int(words[1])
        elif len(words) == 1 and words[0] in ("rows", "columns"):
            count = size["height" if words[0] == "rows" else "width"]
            block = lines[i + 1 : i + 1 + count]
            clues[words[0]] = [[int(n) for n in line.split(",") if n.strip() not in ("", "0")] for line in block]
            i += count
        i += 1
    return clues["rows"], clues["columns"]


def placements(clue, width):
    """Every way to place the clue's blocks in a line of `width` cells, as tuples of 0/1."""
    if not clue:
        return [(0,) * width]
    first, rest = clue[0], clue[1:]
    need_rest = sum(rest) + len(rest)
    out = []
    for start in range(width - first - need_rest + 1):
        head = (0,) * start + (1,) * first
        if rest:
            for tail in placements(rest, width - start - first - 1):
                out.append(head + (0,) + tail)
        else:
            out.append(head + (0,) * (width - start - first))
    return out


def column_can_finish(clue, cells, rows_left):
    """Whether a column whose first cells are `cells` can still match its clue."""
    runs, run = [], 0
    for v in cells:
        if v:
            run += 1
        elif run:
            runs.append(run)
            run = 0
    done = len(runs)
    if done > len(clue) or runs != clue[:done]:
        return False
    if run:
        if done >= len(clue) or run > clue[done]:
            return False
        left = clue[done] - run + sum(clue[done + 1:]) + len(clue[done + 1:])
    else:
        later = clue[done:]
        left = sum(later) + len(later) - 1 if later else 0
    return left <= rows_left


def solve(rows, columns, max_solutions, deadline):
    width, height = len(columns), len(rows)
    options = [placements(clue, width) for clue in rows]
    picture, found = [], []

    def search(r):
        if time.monotonic() > deadline:
            raise TimeoutError
        if r == height:
            found.append(list(picture))
            return len(found) >= max_solutions
        for row in options[r]:
            picture.append(row)
            if all(column_can_finish(columns[c], [p[c] for p in picture], height - r - 1) for c in range(width)):
                if search(r + 1):
                    return True
            picture.pop()
        return False

    try:
        search(0)
        timed_out = False
    except TimeoutError:
        timed_out = True
    return found, timed_out


def main():
    path, max_solutions, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    rows, columns = read_non(path)
    deadline = time.monotonic() + (timeout if timeout > 0 else float("inf"))
    found, timed_out = solve(rows, columns, max_solutions, deadline)
    for picture in found:
        print("\n".join("".join("#" if v else "." for v in row) for row in picture))
        print()
    if timed_out:
        print("timeout")
    elif not found:
        print("contradiction")
    elif len(found) >= 2:
        print("multiple")
    else:
        print("unique" if max_solutions >= 2 else "solved")


main()
