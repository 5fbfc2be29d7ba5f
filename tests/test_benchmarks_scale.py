"""benchmarks/scale*.py: its generated inputs are read by the steps' own readers, grow an open
vocabulary and repeat nothing; its fit, extrapolation, costs.json and page. Nothing is timed."""

from __future__ import annotations

import json
import re
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from conftest import REPO, freebase_kinds, rule_options

sys.path.insert(0, str(REPO / "benchmarks"))
import scale  # noqa: E402
import scale_fit  # noqa: E402
import scale_inputs  # noqa: E402
import scale_levels  # noqa: E402
import scale_report  # noqa: E402
import scale_steps  # noqa: E402
import scale_stories  # noqa: E402
import scale_vectors  # noqa: E402
import scale_wiki  # noqa: E402

from reprobe.embeddings.corpus import iter_token_lines  # noqa: E402
from reprobe.wikipedia.plan import plan_shards  # noqa: E402
from reprobe.wikipedia.shard import ShardOutputs, read_shard  # noqa: E402
from reprobe.wikipse.resource.classes import read_types_map  # noqa: E402
from reprobe.wikipse.resource.freebase import stream_freebase  # noqa: E402

EXCERPT_PAGES = 10  # a dump of 30 pages is three copies of the excerpt's first ten


@pytest.fixture(scope="module")
def wiki(tmp_path_factory: pytest.TempPathFactory) -> scale_wiki.WikiInfo:
    """A generated dump: three renamed copies of ten excerpt pages."""
    return scale_wiki.build_wiki(tmp_path_factory.mktemp("wiki"), 30,
                                 excerpt_limit=EXCERPT_PAGES)


def test_the_shard_reader_reads_the_generated_multistream_dump(wiki, tmp_path: Path) -> None:
    plan = plan_shards(Path(wiki.path), Path(wiki.index), 1, 100)
    assert plan.mode == "multistream"
    stats = read_shard(plan, 0, ShardOutputs.in_folder(tmp_path), progress=False,
                       dump=Path(wiki.path))
    assert stats["pages_seen"] == wiki.pages and stats["malformed_pages"] == 0
    assert stats["redirects"] == wiki.redirects > 0 and stats["links"] > 0
    titles = pq.read_table(tmp_path / "pages.parquet", columns=["title"])["title"].to_pylist()
    assert len(set(titles)) == len(titles)
    assert any(title.endswith(" (copy 2)") for title in titles)
    targets = pq.read_table(tmp_path / "links.parquet", columns=["target"])["target"]
    assert any(target.endswith(" (copy 1)") for target in targets.to_pylist())


def test_copies_are_renamed_and_not_repeated(wiki) -> None:
    import bz2

    xml = bz2.decompress(Path(wiki.path).read_bytes()).decode("utf-8")
    header, pages = scale_wiki.split_dump(xml)
    texts = [re.sub(r" \(copy \d+\)", "", m[1]) for m in
             (re.search(r"<text[^>]*>(.*?)</text>", p, re.S) for p in pages) if m and len(m[1])
             > 2000]
    assert len(texts) >= 3 and len(set(texts)) == len(texts)


def test_the_dump_vocabulary_and_titles_grow(tmp_path: Path, wiki) -> None:
    small = scale_wiki.build_wiki(tmp_path, 10, excerpt_limit=EXCERPT_PAGES)
    assert wiki.distinct_words > small.distinct_words
    assert wiki.links > 2.5 * small.links
    assert len(Path(wiki.titles).read_text().splitlines()) > 2.5 * len(
        Path(small.titles).read_text().splitlines())


def test_freebase_reader_and_join_accept_the_generated_dump(wiki, tmp_path: Path) -> None:
    titles = Path(wiki.titles).read_text(encoding="utf-8").splitlines()
    types_map = read_types_map(scale_levels.FIGER_MAP)
    links = round(wiki.links * scale_wiki.RENDERED_SHARE)
    dump = scale_inputs.write_freebase(tmp_path, titles, links, list(types_map))
    assert dump.triples == pytest.approx(links * scale_inputs.TRIPLES_PER_LINK, rel=0.1)
    types_out, titles_out = tmp_path / "types.parquet", tmp_path / "titles.parquet"
    counts = stream_freebase(Path(dump.path), types_map, types_out, titles_out)
    assert counts["lines"] == dump.triples
    assert counts["title_keys_kept"] == len(titles)
    joined = freebase_kinds(types_out, titles_out, only=titles)
    assert 0.7 * len(titles) < len(joined) < len(titles)


def test_freebase_keys_escape_as_freebase_does() -> None:
    from reprobe.wikipse.resource.freebase import parse_key

    for title in ("Stalker (1979 film)", "Vlorë", "Palme d'Or", "\U0001D11E clef"):
        assert parse_key(scale_inputs.freebase_key(title)) == title


def test_corpora_grow_an_open_vocabulary_and_repeat_no_sentence(tmp_path: Path) -> None:
    infos = [scale_inputs.write_corpus(tmp_path, tokens) for tokens in (5_000, 20_000, 80_000)]
    for info in infos:
        lines = Path(info.path).read_text(encoding="utf-8").splitlines()
        assert sum(len(tokens) for tokens in iter_token_lines(Path(info.path))) == info.tokens
        assert len(set(lines)) == len(lines) == info.sentences
    distinct = [info.distinct_words for info in infos]
    heaps = np.log(distinct[-1] / distinct[0]) / np.log(16)
    assert distinct[0] < distinct[1] < distinct[2] and 0.5 < heaps < 0.95


def test_ranks_follow_the_head_then_the_tail() -> None:
    ranks = scale_inputs.draw_ranks(np.random.default_rng(0), 200_000)
    assert ranks.min() == 1 and ranks.max() > 10 * scale_inputs.HEAD_RANKS
    assert scale_inputs.draw_ranks(np.random.default_rng(0), 1000, lowest=1000).min() >= 1000
    words = {scale_inputs.rank_word(rank) for rank in range(1, 20_000)}
    assert len(words) == 19_999


def test_the_fit_recovers_a_power_law() -> None:
    sizes = [1e3, 4e3, 1.6e4, 6.4e4]
    noise = np.random.default_rng(1).normal(1.0, 0.01, len(sizes))
    fit = scale_fit.fit_power(sizes, [3.0 * s ** 0.7 * e for s, e in zip(sizes, noise,
                                                                          strict=True)])
    assert fit.alpha == pytest.approx(0.7, abs=0.02)
    assert fit.coef == pytest.approx(3.0, rel=0.2)
    with pytest.raises(ValueError):
        scale_fit.fit_power([5.0, 5.0], [1.0, 2.0])
    assert scale_fit.linear_from_largest([1, 2, 4], [10, 12, 20], 8) == 36


def points(cpu: tuple[float, float], rss: tuple[float, float], sizes: list[float],
           details: str | None = None) -> list[scale_fit.Point]:
    """Exact power-law points: (coef, alpha) of CPU s and of peak RSS MB."""
    return [scale_fit.Point(s, cpu[0] * s ** cpu[1], 0.6 * cpu[0] * s ** cpu[1],
                            rss[0] * s ** rss[1],
                            {details: 0.5 * s ** 0.7} if details else {}) for s in sizes]


@pytest.fixture()
def results() -> scale_report.Results:
    """Made-up results for three steps: a shard reader, typing, and GloVe."""
    host = {"cores": 2, "cpu_model": "test CPU", "python": "3.11", "platform": "Linux",
            "load_average_before": [0.5, 0.5, 0.5], "git_head": "abc1234"}
    measured = {
        "wikipedia_shard": points((1.5, 1.0), (200.0, 0.0), [2.0, 8.0, 32.0]),
        "wikipse_typing": points((1e-4, 1.0), (1e-2, 1.0), [1e4, 4e4, 1.6e5]),
        "numeracy_train_glove": points((1e-5, 1.0), (5.0, 0.3), [2.5e5, 1e6, 4e6],
                                       "words (min count 5)"),
    }
    return scale_report.Results(measured, {"wikipse_freebase": "failed at size 8: boom"},
                                "quick", "python benchmarks/scale.py --quick", "today", host, 2)


def test_extrapolation_to_the_paper_job(results) -> None:
    step = scale_steps.BY_NAME["wikipedia_shard"]
    estimate = scale_fit.estimate(step, results.points["wikipedia_shard"], cores=2)
    assert estimate.cpu_s == pytest.approx(1.5 * 90)
    # One thread: its wall time is its CPU time, though it used more than one core here.
    assert estimate.wall_s == pytest.approx(1.5 * 90)
    assert estimate.peak_rss_mb == pytest.approx(200.0)
    glove = scale_fit.estimate(scale_steps.BY_NAME["numeracy_train_glove"],
                               results.points["numeracy_train_glove"], cores=2)
    # 2 threads here, 8 in the paper's job: the wall time is scaled by 2/8; the GloVe target
    # is judged on 16 threads.
    assert glove.wall_s == pytest.approx(1e-5 * 1.5e9 * 0.6 * 2 / 8)
    hours = 1e-5 * 1.5e9 * 0.6 * 2 / 16 / 3600
    assert scale_fit.glove_verdict(glove, 8) == (True, f"{hours:.2f} h on 16 threads (target "
                                                       "≤ 3 h)")
    typing = scale_steps.BY_NAME["wikipse_typing"]
    unbounded = replace(typing, budget_mb=None)
    assert scale_fit.memory_verdict(unbounded, results.points["wikipse_typing"])[0] is False
    # With a budget it spills beyond, its peak is bounded by the largest size's plus the budget.
    met, why = scale_fit.memory_verdict(typing, results.points["wikipse_typing"])
    largest = max(p.peak_rss_mb for p in results.points["wikipse_typing"])
    assert met and why.endswith(f"at most {largest + typing.budget_mb:.0f} MB")
    bounded = scale_fit.estimate(typing, results.points["wikipse_typing"], cores=2)
    assert bounded.peak_rss_mb <= largest + typing.budget_mb < scale_fit.estimate(
        unbounded, results.points["wikipse_typing"], cores=2).peak_rss_mb
    assert scale_fit.memory_verdict(scale_steps.BY_NAME["numeracy_train_glove"],
                                    results.points["numeracy_train_glove"])[0] is True
    assert scale_fit.memory_verdict(step, results.points["wikipedia_shard"])[0] is True


def test_a_fixed_shard_in_a_growing_dump_tells_where_memory_grows(results) -> None:
    step = scale_steps.BY_NAME["wikipse_corpus_shard"]
    growing = points((0.5, 1.0), (100.0, 0.3), [2.0, 8.0, 32.0])
    flat = points((0.5, 0.1), (150.0, 0.01), [2.0, 8.0, 32.0])
    assert scale_fit.memory_verdict(step, growing)[0] is False
    met, why = scale_fit.memory_verdict(step, growing, flat)
    assert met and "flat in the whole dump" in why
    assert scale_fit.memory_verdict(step, growing, growing)[0] is False
    # Flat in the dump: peak RSS at one shard; else at the whole dump, an upper bound.
    assert scale_fit.estimate(step, growing, 2, flat).memory_size == 90
    assert scale_fit.estimate(step, growing, 2, growing).memory_size == 90 * 256
    assert scale_fit.estimate(step, growing, 2).memory_size == 90 * 256


def test_costs_json_has_the_agreed_shape(results) -> None:
    costs = scale_report.costs(results)
    assert set(costs) == {"measured", "steps"}
    assert set(costs["measured"]) == {"command", "date", "machine", "git"}
    assert list(costs["steps"]) == ["wikipedia_shard", "wikipse_typing", "numeracy_train_glove"]
    for name, entry in costs["steps"].items():
        assert set(entry) == {"rules", "unit", "threads", "points", "cpu_s", "peak_rss_mb",
                              "paper"}
        assert set(entry["points"][0]) == {"size", "cpu_s", "wall_s", "peak_rss_mb"}
        assert set(entry["cpu_s"]) == set(entry["peak_rss_mb"]) == {"coef", "alpha"}
        assert set(entry["paper"]) == {"size", "per", "source", "cpu_s", "peak_rss_mb",
                                       "output_mb", "extrapolated"}
        assert entry["paper"]["extrapolated"] is True
        assert entry["rules"] == list(scale_steps.BY_NAME[name].rules)
    glove = costs["steps"]["numeracy_train_glove"]
    assert glove["threads"] == 8 and glove["paper"]["size"] == 1.5e9
    assert glove["cpu_s"]["alpha"] == pytest.approx(1.0)
    assert glove["paper"]["cpu_s"] == pytest.approx(1e-5 * 1.5e9, rel=1e-3)


def test_the_page_marks_every_paper_figure_extrapolated(results, tmp_path: Path) -> None:
    page, costs_path = tmp_path / "scale.md", tmp_path / "costs.json"
    page.write_text("# Scale\n\n<!-- scale:begin -->\n<!-- scale:end -->\n", encoding="utf-8")
    costs_path.write_text(json.dumps({"about": "a", "rules": {"r": {}}, "steps": {"old": {}}}))
    scale_report.write_outputs(results, page, costs_path)
    text = page.read_text(encoding="utf-8")
    summary = text.split("### Summary", 1)[1].split("\n\n")[2]
    assert summary.count("(extrapolated)") == 4
    # Typing's memory is bounded by its budget, so every stage fits; others were not measured.
    assert ("Paper tier ≤ 24 h wall on 32 cores / 128 GB, its benchmarked stages alone: "
            "unknown") in text
    assert "GloVe, 25 epochs on one 1.5B-token corpus ≤ 3 h on 16 threads: met" in text
    assert "`wikipse_freebase`: failed at size 8: boom" in text
    assert (tmp_path / "scale" / "wikipse_typing.png").stat().st_size > 1000
    written = json.loads(costs_path.read_text())
    assert written["measured"]["git"] == "abc1234"
    # The rules' costs stay; the steps are this run's.
    assert written["about"] == "a" and written["rules"] == {"r": {}}
    assert "old" not in written["steps"] and "wikipse_typing" in written["steps"]




def test_each_step_runs_its_rules_command(wiki) -> None:
    settings = scale_levels.paper_settings(2)
    folder = Path(wiki.path).parent
    level = scale_levels.Level("wiki", 30, folder, wiki, settings, 2)
    corpus = scale_inputs.CorpusInfo(str(folder / "c.txt"), 10, 1, 5, 1, 0, 0)
    probe = scale_inputs.ProbeInfo(str(folder / "v"), "train.tsv", "test.tsv", 10, 400, 0)
    levels = {"wiki": level, "text": scale_levels.Level("text", 10, folder, corpus, settings, 2),
              "probe": scale_levels.Level("probe", 10, folder, probe, settings, 2)}
    levels["sskip"] = levels["text"]
    vectors = scale_vectors.VectorsInfo(str(folder / "v.txt"), 10, 1, 300, 0)
    stories = scale_stories.StoriesInfo(str(folder / "stories"), 10, 0)
    levels["vectors"] = scale_levels.Level("vectors", 10, folder, vectors, settings, 2)
    levels["stories"] = scale_levels.Level("stories", 10, folder, stories, settings, 2)
    for step in (step for step in scale_steps.STEPS if step.chain in levels):  # core chains
        argv = step.argv(levels[step.chain])
        assert argv[:3] == [sys.executable, "-m", "reprobe"]
        command, options = rule_options(step.rules[0])
        assert argv[3:5] == command, step.name
        assert options <= set(argv), (step.name, options - set(argv))


def test_steps_are_chosen_by_name() -> None:
    assert scale.step_list("wikipedia_shard, wikipse_typing") == ["wikipedia_shard",
                                                                   "wikipse_typing"]
    with pytest.raises(Exception, match="unknown step"):
        scale.step_list("wikipedia_shard,nope")
    needed = [step.name for step in scale_steps.closure(["wikipse_corpus_shard"])]
    assert needed == ["wikipedia_plan", "wikipedia_shard", "wikipedia_gather",
                      "wikipse_freebase", "wikipse_typing", "wikipse_corpus_shard"]


def test_paper_jobs_are_the_paper_configurations() -> None:
    from reprobe.config import CHECKOUT, fill_defaults, load_yaml
    from reprobe.wikipse.targets import WikiPseTargets

    config = load_yaml(CHECKOUT / "config" / "paper.yaml")
    fill_defaults(config)
    targets = WikiPseTargets(config, lambda name: f"data/raw/{name}/{name}", ["0000"])
    probed = [name for variant in targets.variants for name in targets.probed_in(variant)]
    dims = [int(name.rsplit("-", 1)[1]) / scale_levels.SSKIP_DIM for name in probed]
    probe = scale_steps.BY_NAME["wikipse_probe"].paper
    assert (probe.jobs, probe.work) == (len(probed), sum(dims))
    embed = scale_steps.BY_NAME["wikipse_embed"].paper
    dims = [int(name.rsplit("-", 1)[1]) / scale_levels.SSKIP_DIM for name in targets.embeddings]
    assert (embed.jobs, embed.work) == (len(targets.embeddings), sum(dims))
    assert scale_steps.BY_NAME["wikipse_embed"].threads == config["wikipse"]["embeddings"][
        "workers"]
    retrain = config["numeracy"]["retrain"]
    for family in retrain["families"]:
        step = scale_steps.BY_NAME[f"numeracy_train_{family}"]
        assert step.threads == retrain["workers"] and step.paper.jobs == 2
    assert config["wikipedia"]["shards"] == scale_steps.SHARDS


def test_glove_fit_is_extrapolated_by_its_entries_counting_by_tokens() -> None:
    from scale_fit import GLOVE_PAPER_ENTRIES, Point, glove_cpu_s

    # Counting: 1 CPU s per 1e6 tokens; the fit: 1 s of wall on 2 threads per 1e6 entries.
    points = [Point(size, size / 1e6 + 2 * entries / 1e6, 0.0, 100.0,
                    {"fit_s": entries / 1e6, "co-occurrences": entries}, 1.0)
              for size, entries in ((1e6, 5e5), (4e6, 1.6e6), (16e6, 5e6))]
    expected = 1.5e9 / 1e6 + 2 * GLOVE_PAPER_ENTRIES / 1e6
    assert glove_cpu_s(points, 2, 1.5e9) == pytest.approx(expected, rel=1e-6)
    assert glove_cpu_s([Point(1e6, 1.0, 1.0, 1.0, {}, 1.0)], 2, 1.5e9) is None


def test_a_trainer_costs_its_tokens_linearly_and_its_vocabulary_in_memory() -> None:
    from scale_fit import Point, estimate
    from scale_steps import BY_NAME

    step = BY_NAME["numeracy_train_word2vec"]
    vocabulary = step.vocabulary
    # CPU grows faster than tokens here; memory by 1 MB a vocabulary word.
    points = [Point(size, size ** 1.2 / 1e5, size ** 1.2 / 2e5, 100 + words / 1000,
                    {vocabulary: words}, 1.0)
              for size, words in ((2.5e5, 5_000), (1e6, 20_000), (4e6, 50_000))]
    found = estimate(step, points, 2)
    assert found.cpu_s == pytest.approx(4e6 ** 1.2 / 1e5 / 4e6 * step.paper.size)
    assert found.peak_rss_mb == pytest.approx(150 + (step.paper.vocabulary - 50_000) / 1000)


def test_an_embedding_file_holds_distinct_words_and_numerals_the_loader_reads(
        tmp_path: Path) -> None:
    from reprobe.embeddings.load import load_vectors

    info = scale_vectors.write_vectors(tmp_path / "v", 400, dim=8)
    vectors = load_vectors(Path(info.path), "glove_txt")
    words = vectors.index_to_key
    assert len(words) == len(set(words)) == 400 and vectors.vector_size == 8
    numerals = [word for word in words if word[0].isdigit()]
    assert len(numerals) == info.numerals == 400 // scale_vectors.NUMERAL_EVERY
    assert scale_vectors.write_vectors(tmp_path / "v", 400, dim=8) == info  # cached


def test_stories_are_read_as_cnn_stories_with_quantities(tmp_path: Path) -> None:
    from reprobe.equate.sets.newsnli import has_quantity, iter_stories

    info = scale_stories.write_stories(tmp_path / "s", 12)
    stories = [story for _, story in iter_stories(Path(info.path))]
    assert len(stories) == 12
    assert all(len(story.paragraphs) == scale_stories.PARAGRAPHS for story in stories)
    assert all(3 <= len(story.highlights) <= 4 for story in stories)
    points = [point for story in stories for point in story.highlights]
    assert 0 < sum(map(has_quantity, points)) < len(points)


def test_a_rerun_of_some_steps_keeps_the_others() -> None:
    from scale_fit import Point

    def results(points: dict, command: str, mode: str = "quick") -> scale_report.Results:
        return scale_report.Results(points, {}, mode, command, "d", {}, 2)

    old = Point(1.0, 1.0, 1.0, 1.0, {}, 0.0)
    new = Point(2.0, 2.0, 2.0, 2.0, {}, 0.0)
    earlier = results({"wikipedia_shard": [old], "numeracy_vectors": [old]}, "first")
    merged = scale.kept_with(earlier, results({"numeracy_vectors": [new]}, "second"))
    assert merged.points == {"wikipedia_shard": [old], "numeracy_vectors": [new]}
    assert merged.command == "first; then second"
    with pytest.raises(SystemExit, match="--keep"):
        scale.kept_with(earlier, results({}, "tiny", mode="tiny"))
