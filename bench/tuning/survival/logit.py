#!/usr/bin/env python3
"""Fits which beam states survive (data from `survive`) against their key and features, and
steps the evaluation weights along what the fit says the key misses (bench/tuning/README.md,
session 10). Plain Python, no packages.

Within each sampled depth, key and features are centred on the depth's means; a logistic
regression then gives survival log-odds = a * key + b . features (a < 0: a lower key survives).
A state survives as if its key were key + (b / a) . features, so b / a is how much each weight
should move; `--step L` writes BASE + L * (b / a) (features in `--skip` left alone).
"""
import argparse, json, math, random, collections

NAMES = ['cells', 'row_transitions', 'wall_transitions', 'column_transitions', 'holes',
         'hole_rows', 'shallow_holes', 'well_sums', 'bumpiness', 'max_height', 'top_cells',
         'landing_height', 'clean_well', 'spawn_column']
# shallow_holes and clean_well count nothing (or are not computed) at the shipped settings.
USE = [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 13]


def load(path, neg, seed=1):
    """Rows [1, key, features...] centred per depth, all survivors and up to `neg` times as
    many other states, and their labels."""
    rng = random.Random(seed)
    groups = collections.defaultdict(list)
    for line in open(path):
        r = json.loads(line)
        groups[r['t']].append(r)
    X, Y = [], []
    for rows in groups.values():
        mk = rows[0]['mk']
        mf = [rows[0]['mf'][i] for i in USE]
        alive = [r for r in rows if r['alive']]
        dead = [r for r in rows if not r['alive']]
        if not alive or not dead:
            continue
        for r in alive + rng.sample(dead, min(len(dead), neg * len(alive))):
            X.append([1.0, r['key'] - mk] + [r['f'][i] - m for i, m in zip(USE, mf)])
            Y.append(1 if r['alive'] else 0)
    return X, Y


def solve(A, b):
    n = len(A)
    M = [A[i][:] + [b[i]] for i in range(n)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        if abs(M[c][c]) < 1e-12:
            continue
        for r in range(n):
            if r != c:
                f = M[r][c] / M[c][c]
                for k in range(c, n + 1):
                    M[r][k] -= f * M[c][k]
    return [M[i][n] / M[i][i] if abs(M[i][i]) > 1e-12 else 0 for i in range(n)]


def prob(w, x, cols):
    z = sum(w[j] * x[c] for j, c in enumerate(cols))
    return 1 / (1 + math.exp(-max(-30, min(30, z))))


def fit(X, Y, cols, iters=12, lam=1e-2):
    """Newton's method on the L2-regularised log-likelihood."""
    w = [0.0] * len(cols)
    for _ in range(iters):
        g = [0.0] * len(cols)
        H = [[0.0] * len(cols) for _ in cols]
        for x, y in zip(X, Y):
            p = prob(w, x, cols)
            d, s = y - p, p * (1 - p)
            for j, c in enumerate(cols):
                g[j] += d * x[c]
                xc = x[c] * s
                for k, c2 in enumerate(cols):
                    H[j][k] += xc * x[c2]
        for j in range(len(cols)):
            H[j][j] += lam
            g[j] -= lam * w[j]
        w = [a + b for a, b in zip(w, solve(H, g))]
    return w


def loglik(X, Y, cols, w):
    return sum(math.log(max(1e-12, prob(w, x, cols) if y else 1 - prob(w, x, cols)))
               for x, y in zip(X, Y)) / len(X)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('files', nargs='+', help='survive output, one file per seed')
    ap.add_argument('--neg', type=int, default=20, help='other states per survivor')
    ap.add_argument('--folds', type=int, default=0,
                    help='hold out each of the first N files in turn and report log-likelihoods')
    ap.add_argument('--delta', help='write b / a per feature here (JSON)')
    ap.add_argument('--base', help='weights file to step from')
    ap.add_argument('--step', type=float, default=0.0)
    ap.add_argument('--skip', default='', help='comma-separated features not to move')
    ap.add_argument('--out', help='stepped weights file')
    args = ap.parse_args()
    data = {f: load(f, args.neg) for f in args.files}
    key_only, full = [0, 1], list(range(2 + len(USE)))
    for hold in args.files[:args.folds]:
        Xt = [x for f in args.files if f != hold for x in data[f][0]]
        Yt = [y for f in args.files if f != hold for y in data[f][1]]
        Xe, Ye = data[hold]
        print(f'{hold}: held-out log-likelihood key only '
              f'{loglik(Xe, Ye, key_only, fit(Xt, Yt, key_only)):.4f}, with features '
              f'{loglik(Xe, Ye, full, fit(Xt, Yt, full)):.4f}')
    X = [x for f in args.files for x in data[f][0]]
    Y = [y for f in args.files for y in data[f][1]]
    w = fit(X, Y, full)
    delta = {NAMES[i]: w[2 + j] / w[1] for j, i in enumerate(USE)}
    print(f'a (key) {w[1]:.4f}')
    for k, v in delta.items():
        print(f'{k:20s} {v:8.3f}')
    if args.delta:
        json.dump(delta, open(args.delta, 'w'), indent=1)
    if args.out:
        weights = json.load(open(args.base))
        skip = set(filter(None, args.skip.split(',')))
        for k, v in delta.items():
            if k not in skip:
                weights[k] += args.step * v
        json.dump(weights, open(args.out, 'w'), indent=1)


if __name__ == '__main__':
    main()
