"""Tests for the Q-REAS quantity segmenter and parser (EQUATE §4.2.1–4.2.2, Table 8)."""

from __future__ import annotations

import math

import pytest

from reprobe.equate.quantities import (
    NumSet,
    Parse,
    equate_parses,
    parse_quantities,
    segment_quantities,
    tokenize,
)


def only(sentence: str) -> NumSet:
    """The single quantity a sentence holds."""
    found = parse_quantities(sentence)
    assert len(found) == 1, found
    return found[0]


def close(value: tuple[float, float], low: float, high: float) -> bool:
    """Whether a range equals (low, high) up to float rounding."""
    return math.isclose(value[0], low, abs_tol=1e-9) and math.isclose(value[1], high, abs_tol=1e-9)


# Table 8, one hand-written sentence per phenomenon.


def test_arithmetic_counts_conjoined_states_only_when_a_number_is_written() -> None:
    assert parse_quantities("Smith faces charges in Texas and Ohio") == []
    two = only("Smith has been charged in two states")
    assert (two.value, two.unit, two.verb) == ((2.0, 2.0), "state", "charge")


def test_ranges_between_and_up_to() -> None:
    between = only("Between 40 and 50 miners were trapped in the shaft")
    assert (between.value, between.unit, between.verb) == ((40.0, 50.0), "miner", "trap")
    up_to = only("Upto 50 miners thought trapped in shaft")
    assert (up_to.value, up_to.unit) == ((-math.inf, 50.0), "miner")


def test_quantifiers_over_is_a_lower_bound_with_location() -> None:
    over = only("Survey: Jones over 40% in Ohio")
    assert (over.value, over.unit, over.location) == ((40.0, math.inf), "percent", "in Ohio")


def test_ordinals_are_flagged_with_their_rank_and_noun() -> None:
    first, second = parse_quantities("Third-placed Lyon marked their 25th birthday with a draw")
    assert (first.value, first.unit, first.ordinal) == ((3.0, 3.0), "place", True)
    assert (second.value, second.unit, second.ordinal) == ((25.0, 25.0), "birthday", True)


def test_approximation_some_widens_by_two_percent() -> None:
    exact = only("Chile has sent 2513 nurses")
    rough = only("Chile has sent some 2500 nurses")
    assert exact.value == (2513.0, 2513.0) and not exact.approximate
    assert close(rough.value, 2450.0, 2550.0) and rough.approximate
    assert rough.unit == exact.unit == "nurse" and rough.verb == "send"


def test_ratios_one_in_four_is_a_fraction_of_its_noun() -> None:
    ratio = only("1 in 5 Parisians own a bicycle")
    assert (ratio.value, ratio.unit, ratio.entity) == ((0.2, 0.2), "fraction", "parisian")
    assert only("Parisians ride more (20%)").value == (20.0, 20.0)


def test_ratios_out_of_and_words() -> None:
    assert only("3 out of 5 dentists agree").value == (0.6, 0.6)
    assert only("one in four voters stayed home").value == (0.25, 0.25)


def test_comparison_both_sides_parse_even_without_a_unit() -> None:
    lives = only("Strong winds took three lives on the Texas coast")
    bare = only("Winds kill three in Texas")
    assert (lives.value, lives.unit, lives.location) == ((3.0, 3.0), "life", "on the Texas coast")
    assert (bare.value, bare.unit, bare.verb, bare.location) == ((3.0, 3.0), None, "kill",
                                                                 "in Texas")


def test_conversion_percent_and_times_both_parse() -> None:
    percent = only("Smoking raises the risk of stroke by 300%")
    times = only("Smokers three times more likely to suffer a stroke")
    assert (percent.value, percent.unit) == ((300.0, 300.0), "percent")
    assert (times.value, times.unit) == ((3.0, 3.0), "time")


def test_numeration_words_and_digits_parse_alike() -> None:
    words = only("Nine suspects were detained")
    digits = only("9 suspects have been detained")
    assert words.value == digits.value == (9.0, 9.0)
    assert words.unit == digits.unit == "suspect"
    assert words.verb == digits.verb == "detain"


def test_implicit_quantities_two_more_times() -> None:
    more = only("The ferry sank two more times")
    total = only("His ferry sank three times")
    assert (more.value, more.unit) == ((2.0, 2.0), "time")
    assert (total.value, total.unit) == ((3.0, 3.0), "time")


# The brief's fixed cases.


def test_fewer_than_is_an_inclusive_upper_bound_from_minus_infinity() -> None:
    # The paper writes "fewer than 10 apples" as [-inf, 10]: strictness is not kept.
    fewer = only("fewer than 20 people")
    assert (fewer.value, fewer.unit) == ((-math.inf, 20.0), "people")


def test_about_widens_by_two_percent_and_lemmatises_the_unit() -> None:
    about = only("about 100 soldiers")
    assert close(about.value, 98.0, 102.0) and about.unit == "soldier"


def test_between_shares_the_scale_word_and_reads_dollars() -> None:
    money = only("between 3 and 5 million dollars")
    assert (money.value, money.unit) == ((3e6, 5e6), "dollar")


def test_percent_sign_and_word() -> None:
    assert (only("15%").value, only("15%").unit) == ((15.0, 15.0), "percent")
    assert only("15 percent").unit == "percent"


def test_three_quarters_of_the_voters() -> None:
    share = only("three-quarters of the voters")
    assert (share.value, share.unit, share.entity) == ((0.75, 0.75), "fraction", "voter")


def test_twenty_one() -> None:
    assert only("twenty-one").value == (21.0, 21.0)


# Further value forms.


def test_currency_symbol_with_scale_and_frequency() -> None:
    sales = only("Acme earns $ 2.5 billion a year")
    assert (sales.value, sales.unit, sales.frequency) == ((2.5e9, 2.5e9), "dollar", "a year")


def test_glued_scale_and_thousands_separator() -> None:
    assert only("a 374m budget").value == (374e6, 374e6)
    assert only("1,917 soldiers").value == (1917.0, 1917.0)


@pytest.mark.parametrize(
    ("phrase", "low", "high"),
    [("more than 7 cars", 7.0, math.inf), ("at least 7 cars", 7.0, math.inf),
     ("at most 7 cars", -math.inf, 7.0), ("under 7 cars", -math.inf, 7.0)],
)
def test_bound_phrases(phrase: str, low: float, high: float) -> None:
    assert only(phrase).value == (low, high)


def test_hyphen_and_to_ranges() -> None:
    assert only("20-30 people").value == (20.0, 30.0)
    assert only("20 to 30 people").value == (20.0, 30.0)


def test_bare_dozen_is_twelve() -> None:
    books = only("he wrote dozen of books")
    assert (books.value, books.unit) == ((12.0, 12.0), "book")
    assert only("two dozen eggs").value == (24.0, 24.0)


def test_plural_scale_thousands_of() -> None:
    crowd = only("thousands of people marched")
    assert (crowd.value, crowd.unit, crowd.verb) == ((2e3, 1e6), "people", "march")


def test_fractions_half_a_third_and_slash() -> None:
    assert only("half the workers").value == (0.5, 0.5)
    assert close(only("a third of the money").value, 1 / 3, 1 / 3)
    assert only("3/4 of the cake").value == (0.75, 0.75)
    assert only("half a million people").value == (5e5, 5e5)


def test_flux_from_and_to_split_into_two_quantities() -> None:
    start, end = parse_quantities("Rates rose from 4 % to 4.5 %")
    assert (start.value, start.flux) == ((4.0, 4.0), "increase from")
    assert (end.value, end.flux) == ((4.5, 4.5), "increase to")


def test_adjective_and_known_unit() -> None:
    police = only("a bomb killed four Iraqi policemen")
    assert (police.unit, police.adjective, police.verb) == ("policeman", "iraqi", "kill")
    assert only("He drove 60 miles per hour").frequency == "per hour"


# Segmenter and released parses.


def test_segment_quantities_spans_modifier_number_and_unit() -> None:
    tokens = tokenize("They saw about 100 soldiers and 3 tanks")
    assert segment_quantities(tokens) == [(2, 5), (6, 8)]


def test_released_corenlp_parse_supplies_unit_adjective_and_verb() -> None:
    # One sentence laid out as EQUATE's jsonl rows are: lowercased tokens, Penn tags, 1-based arcs.
    tokens = ["rebels", "killed", "7", "young", "soldiers", "."]
    arcs = [
        {"dep": "nsubj", "dependent": 1, "governor": 2},
        {"dep": "ROOT", "dependent": 2, "governor": 0},
        {"dep": "nummod", "dependent": 3, "governor": 5},
        {"dep": "amod", "dependent": 4, "governor": 5},
        {"dep": "dobj", "dependent": 5, "governor": 2},
        {"dep": "punct", "dependent": 6, "governor": 2},
    ]
    row = {"sentence2_tokens": [tokens], "sentence2_pos": [["NNS", "VBD", "CD", "JJ", "NNS", "."]],
           "sentence2_dep_parse": [arcs]}
    (parse,) = equate_parses(row, "sentence2")
    assert isinstance(parse, Parse) and parse.deps is not None
    (soldiers,) = parse_quantities(list(tokens), parse)
    assert (soldiers.value, soldiers.unit, soldiers.adjective, soldiers.verb) == (
        (7.0, 7.0), "soldier", "young", "kill")


def test_nearest_noun_is_the_unit_when_no_other_rule_gives_one() -> None:
    # §4.2.2: "else we assign the nearest noun to the cardinal number as the unit".
    assert only("Her dad borrowed 3.0 of her quarters.").unit == "quarter"
    # Within the number's own phrase: not across a preposition, a verb or a clause break.
    assert only("She gave 7.0 to her friends.").unit is None
    assert only("The storm injured 80 in the town.").unit is None


def test_a_time_adverb_ends_the_unit_noun_phrase() -> None:
    assert only("The workers plant 33 walnut trees today.").unit == "tree"


def test_years_and_strict_bounds_are_marked() -> None:
    assert only("Sales rose in fiscal 2005.").year and only("in fiscal year 2005").year
    assert not only("The school has 2005 students.").year
    assert only("more than 9 hours").strict_bound and only("under 9 hours").strict_bound
    assert not only("at least 9 hours").strict_bound
    assert not only("no more than 9 hours").strict_bound


def test_up_to_after_a_verb_is_a_value_not_a_bound() -> None:
    revised = only("Growth was revised up to 4.2% last quarter.")
    assert revised.value == (4.2, 4.2)
    assert only("Up to 15 judges sit on the court.").value == (-math.inf, 15.0)


@pytest.mark.parametrize(("text", "value"), [("Apple earns $13.7B.", 13.7e9),
                                             ("Debt reaches $1.2tn.", 1.2e12)])
def test_glued_b_and_tn_are_scales(text: str, value: float) -> None:
    assert only(text).value == pytest.approx((value, value))
