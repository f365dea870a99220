"""p50 and p99 of a Prometheus histogram of the relay's, to the bucket, from two scrapes of
/metrics (the observations between them; give /dev/null as the first for all of them):

    python3 scripts/metric_quantiles.py before.txt after.txt pushrelay_webhook_duration_seconds

prints `p50 <= 3 ms, p99 <= 10 ms over 1,234` (a quantile is the upper bound of the first bucket
holding it; the relay's buckets are in DeliveryMetrics.durationBuckets).
"""
import re
import sys


def buckets(path, metric):
    text = open(path).read()
    pattern = rf"^{re.escape(metric)}_bucket\{{.*?le=\"([^\"]+)\".*?\}} ([0-9.e+]+)"
    return {le: float(n) for le, n in re.findall(pattern, text, re.M)}


def main(before_path, after_path, metric):
    before, after = buckets(before_path, metric), buckets(after_path, metric)
    counts = sorted((float("inf") if le == "+Inf" else float(le), n - before.get(le, 0)) for le, n in after.items())
    total = counts[-1][1] if counts else 0
    if not total:
        print(f"none observed ({metric})")
        return

    def quantile(q):
        return next(le for le, n in counts if n >= q * total)

    print(f"p50 <= {quantile(0.5) * 1000:g} ms, p99 <= {quantile(0.99) * 1000:g} ms over {total:,.0f}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
