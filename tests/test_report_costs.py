"""Tests for a paper page's cost section, read from the jobs' benchmark files."""

from __future__ import annotations

from pathlib import Path

from reprobe.report.costs import costs_html, ranked, read_costs, summary

HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def bench(logs: Path, name: str, seconds: float, rss: str, cpu: float) -> None:
    """One job's benchmark file, as Snakemake writes it."""
    path = logs / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + f"{seconds}\t0:00:01\t{rss}\t1\t1\t1\t0\t0\t0\t{cpu}\n",
                    encoding="utf-8")


def test_costs_sum_a_papers_rules_and_keep_the_largest_peak(tmp_path: Path) -> None:
    bench(tmp_path, "numeracy_probe/a.benchmark.tsv", 2.0, "150.5", 1.5)
    bench(tmp_path, "numeracy_probe/b.benchmark.tsv", 3.0, "-", 2.0)
    bench(tmp_path, "numeracy_table.benchmark.tsv", 9.0, "90", 8.0)
    bench(tmp_path, "equate_table6.benchmark.tsv", 1.0, "80", 1.0)
    costs = read_costs(tmp_path, "numeracy")
    assert set(costs) == {"numeracy_probe", "numeracy_table"}
    probe = costs["numeracy_probe"]
    assert (probe.jobs, probe.wall_s, probe.cpu_s, probe.max_rss_mb) == (2, 5.0, 3.5, 150.5)
    assert [rule for rule, _ in ranked(costs)] == ["numeracy_table", "numeracy_probe"]
    assert summary(costs)[0] == {"rule": "numeracy_table", "jobs": 1, "wall_s": 9.0,
                                 "cpu_s": 8.0, "max_rss_mb": 90.0}


def test_the_corpus_page_shows_the_wikipedia_readers(tmp_path: Path) -> None:
    bench(tmp_path, "wikipedia_shard/0001.benchmark.tsv", 4.0, "200", 3.0)
    bench(tmp_path, "table_wikipedia_stats.benchmark.tsv", 1.0, "100", 1.0)
    assert set(read_costs(tmp_path, "corpus")) == {"wikipedia_shard", "table_wikipedia_stats"}


def test_the_section_ranks_rules_biggest_first_and_totals(tmp_path: Path) -> None:
    bench(tmp_path, "wikipse_probe/a.benchmark.tsv", 90.0, "300", 80.0)
    bench(tmp_path, "wikipse_table.benchmark.tsv", 2.0, "-", 1.0)
    section = costs_html(read_costs(tmp_path, "wikipse"))
    assert section.index("wikipse_probe") < section.index("wikipse_table")
    assert "1.5 min" in section and "300 MB" in section and "2 jobs" in section


def test_no_benchmark_yet_says_so() -> None:
    assert "No benchmark files yet" in costs_html({})
