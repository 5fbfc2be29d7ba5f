# WIKI-PSE (Yaghoobzadeh et al. 2019): the targets every WIKI-PSE rule reads and the wildcards'
# constraints; the rules themselves, by concern, in the files included below (beside this one).


from reprobe.wikipse.export_targets import EXPORTS as WP_EXPORTS_DIR, WikiPseExports
from reprobe.wikipse.paths import (
    DATA as WP_DATA,
    MODELS as WP_MODELS,
    RESULTS as WP_RESULTS,
    TABLES as WP_TABLES,
)
from reprobe.wikipse.targets import WikiPseTargets

# Every input, parameter and target list of these rules: reprobe/wikipse/targets.py.
WP = WikiPseTargets(config, raw_target, WIKI_SHARDS)
STAGE_TABLES["wikipse"] = WP.tables + WP.outputs
# Each dataset variant as a Hugging Face dataset folder: reprobe/wikipse/export_targets.py.
WP_EXPORTS = WikiPseExports(WP, SOURCES, config.get("wikipedia", {}).get("dump"))
STAGE_EXPORTS["wikipse"] = WP_EXPORTS.cards


wildcard_constraints:
    wp_model="skip|sskip",
    wp_corpus="word|sclass",
    wp_dim=r"\d+",
    wp_variant="rebuilt|released|authors_corpus|authors_embeddings",
    wp_kind="word|unif|wght",
    wp_origin="authors_corpus|authors_embeddings",
    wp_dataset="rebuilt|released",
    wp_extra=r"[^/]+",


# Part 1: the dataset (typing, corpora, splits, export), then the embeddings.
include: "wikipse_resource.smk"
include: "wikipse_embedding.smk"
# Part 2: the probes (Tables 2-4), the other tasks (Tables 5-7, Figures 3-6), Table 8.
include: "wikipse_probes.smk"
include: "wikipse_tasks.smk"
include: "wikipse_supersense.smk"
