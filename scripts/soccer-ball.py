#!/usr/bin/env python3
"""Writes examples/boards/soccer-ball.off: the truncated icosahedron (12 pentagons, 20 hexagons)
as an OFF mesh, faces counterclockwise seen from outside, in the order the board file names them:

- pentagon A on top (the +z axis), L at the bottom (its antipode);
- B..F the upper ring of pentagons and G..K the lower ring, by longitude counterclockwise seen
  from above, starting from the smallest longitude at or above 0;
- x0..x4 the hexagons round A, y0..y9 the ten hexagons of the A-L equator, z0..z4 the hexagons
  round L, each group by longitude the same way.

Run: python3 scripts/soccer-ball.py > examples/boards/soccer-ball.off
"""
import itertools
import math

phi = (1 + 5 ** 0.5) / 2
ico = []
for a, b in itertools.product([-1, 1], repeat=2):
    ico += [(0, a, b * phi), (a, b * phi, 0), (b * phi, 0, a)]


def sub(p, q):
    return tuple(x - y for x, y in zip(p, q))


def add(p, q):
    return tuple(x + y for x, y in zip(p, q))


def scale(p, k):
    return tuple(k * x for x in p)


def dot(p, q):
    return sum(x * y for x, y in zip(p, q))


def cross(p, q):
    return (p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0])


def norm(p):
    return math.sqrt(dot(p, p))


# Rotate so that one icosahedron vertex points up (+z): pentagon A on top.
top = ico[0]
axis = cross(top, (0, 0, 1))
angle = math.acos(dot(top, (0, 0, 1)) / norm(top))


def rotate(p):
    k = scale(axis, 1 / norm(axis))
    c, s = math.cos(angle), math.sin(angle)
    return add(add(scale(p, c), scale(cross(k, p), s)), scale(k, dot(k, p) * (1 - c)))


ico = [rotate(p) for p in ico]
edges = [(i, j) for i in range(12) for j in range(i + 1, 12) if abs(norm(sub(ico[i], ico[j])) - 2) < 1e-6]
assert len(edges) == 30
tris = [t for t in itertools.combinations(range(12), 3) if all(tuple(sorted(e)) in edges for e in itertools.combinations(t, 2))]
assert len(tris) == 20

# Vertices of the truncation: a third of the way along each edge, from either end.
verts = []
index = {}
for i, j in edges:
    for a, b in [(i, j), (j, i)]:
        index[(a, b)] = len(verts)
        verts.append(add(ico[a], scale(sub(ico[b], ico[a]), 1 / 3)))


def ccw(centre, points):
    """Vertex indices ordered counterclockwise seen from outside (round the outward centre)."""
    n = scale(centre, 1 / norm(centre))
    ref = sub(verts[points[0]], scale(n, dot(verts[points[0]], n)))
    t1 = scale(ref, 1 / norm(ref))
    t2 = cross(n, t1)
    return sorted(points, key=lambda v: math.atan2(dot(verts[v], t2), dot(verts[v], t1)))


pentagons = []
for u in range(12):
    near = [index[(u, v)] for v in range(12) if (u, v) in index]
    pentagons.append((ico[u], ccw(ico[u], near)))
hexagons = []
for a, b, c in tris:
    pts = [index[e] for e in [(a, b), (b, a), (b, c), (c, b), (c, a), (a, c)]]
    centre = scale(add(add(ico[a], ico[b]), ico[c]), 1 / 3)
    hexagons.append((centre, ccw(centre, pts)))


def longitude(p):
    return math.atan2(p[1], p[0]) % (2 * math.pi)


def by_longitude(faces):
    return sorted(faces, key=lambda f: longitude(f[0]))


up = [f for f in pentagons if f[0][2] > 1e-6 and f is not None]
pent_top = max(pentagons, key=lambda f: f[0][2])
pent_bottom = min(pentagons, key=lambda f: f[0][2])
upper = by_longitude([f for f in pentagons if 1e-6 < f[0][2] < pent_top[0][2] - 1e-6])
lower = by_longitude([f for f in pentagons if pent_bottom[0][2] + 1e-6 < f[0][2] < -1e-6])
assert len(upper) == 5 and len(lower) == 5
zs = sorted(set(round(f[0][2], 6) for f in hexagons))
assert len(zs) == 4, zs
x = by_longitude([f for f in hexagons if round(f[0][2], 6) == zs[3]])
z = by_longitude([f for f in hexagons if round(f[0][2], 6) == zs[0]])
y = by_longitude([f for f in hexagons if round(f[0][2], 6) in (zs[1], zs[2])])
assert (len(x), len(y), len(z)) == (5, 10, 5)
faces = [pent_top] + upper + lower + [pent_bottom] + x + y + z
names = list("ABCDEFGHIJKL") + [f"x{i}" for i in range(5)] + [f"y{i}" for i in range(10)] + [f"z{i}" for i in range(5)]

print("OFF")
print("# The truncated icosahedron (soccer ball), written by scripts/soccer-ball.py. Faces, in order:")
print("# " + " ".join(names))
print(f"{len(verts)} {len(faces)} 90")
for v in verts:
    print(" ".join(f"{c:.6f}" for c in v))
for _, f in faces:
    print(len(f), " ".join(map(str, f)))
