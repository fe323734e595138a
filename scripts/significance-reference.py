#!/usr/bin/env python3
# Reference figures for src/domain/analysis/significance.ts, from SciPy (Debian's python3-scipy):
# chi2_contingency without continuity correction per table, and the pooled two-proportion z-test
# (two-sided, normal tail from scipy.stats.norm) for every ordered pair of columns on every row.
# Regenerate the fixture with:
#   python3 scripts/significance-reference.py > test/domain/fixtures/significance-reference.json
import json

import numpy as np
from scipy.stats import chi2_contingency, norm

# counts[row][col]; bases[col] are each group's answers (a row's count is out of its column's base)
TABLES = [
    {"counts": [[30, 10], [20, 40]], "bases": [50, 50]},
    {"counts": [[12, 25, 8], [40, 22, 30], [18, 13, 42]], "bases": [70, 60, 80]},
    {"counts": [[3, 9, 1, 4], [5, 2, 7, 6]], "bases": [8, 11, 8, 10]},
    {"counts": [[250, 180], [750, 820]], "bases": [1000, 1000]},
    {"counts": [[500, 100, 40], [100, 500, 40], [200, 200, 400]], "bases": [800, 800, 480]},
    {"counts": [[1, 0, 2], [4, 6, 3]], "bases": [5, 6, 5]},
]

out = []
for t in TABLES:
    counts = np.array(t["counts"], dtype=float)
    stat, p, dof, expected = chi2_contingency(counts, correction=False)
    pairs = []
    for r, row in enumerate(t["counts"]):
        for i in range(len(row)):
            for j in range(len(row)):
                if i == j:
                    continue
                x1, n1, x2, n2 = row[i], t["bases"][i], row[j], t["bases"][j]
                pooled = (x1 + x2) / (n1 + n2)
                if pooled <= 0 or pooled >= 1:
                    continue
                z = (x1 / n1 - x2 / n2) / np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
                pairs.append({"row": r, "i": i, "j": j, "z": float(z), "p": float(2 * norm.sf(abs(z)))})
    out.append(
        {
            "counts": t["counts"],
            "bases": t["bases"],
            "chi2": {"statistic": float(stat), "df": int(dof), "p": float(p)},
            "pairs": pairs,
        }
    )
print(json.dumps({"command": "python3 scripts/significance-reference.py > test/domain/fixtures/significance-reference.json", "tables": out}, indent=1))
