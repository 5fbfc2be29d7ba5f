"""Word lists and patterns of the Q-REAS quantity parser (EQUATE §4.2.2 and its footnotes)."""

from __future__ import annotations

import math
import re

from reprobe.numerals import NUMBER_WORDS, english_value

INF = math.inf
APPROXIMATION = 0.02  # §4.2.2: an approximate quantity's range is extended by ±2%.
# Footnote 19's gazetteer, plus "some" and "an estimated", which newswire uses the same way.
APPROXIMATORS = [
    "roughly", "approximately", "about", "nearly", "roundabout", "around", "circa", "almost",
    "approaching", "pushing", "more or less", "in the neighborhood of", "in the region of",
    "on the order of", "something like", "give or take", "near to", "close to",
    "in the ballpark of", "some", "an estimated", "estimated",
]
# Upper bounds: the value is at most this ([-inf, v], as the paper writes "fewer than 10").
UPPER = [
    "fewer than", "less than", "under", "below", "at most", "up to", "upto", "no more than",
    "not more than", "as many as", "as much as", "a maximum of", "maximum of", "max",
]
# "revised up to 4.2%": after a verb, "up" is its particle and "to 4.2%" a value, not a bound.
PARTICLE_UP = "up to"
# Bounds that exclude their endpoint; "at least", "at most", "up to", "no more than" include it.
STRICT_BOUNDS = frozenset({
    "fewer than", "less than", "under", "below", "more than", "over", "above", "exceeding",
    "in excess of", "upwards of", "greater than", "beyond",
})
# Lower bounds: the value is at least this ([v, inf]).
LOWER = [
    "more than", "over", "above", "at least", "exceeding", "in excess of", "upwards of",
    "no fewer than", "no less than", "not less than", "greater than", "a minimum of",
    "minimum of", "beyond",
]
CURRENCY = {"$": "dollar", "us$": "dollar", "€": "euro", "£": "pound", "¥": "yen"}
PERCENT = {"%", "percent", "per-cent", "pct", "percentage"}
SCALES = {
    "hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12,
    "dozen": 12.0, "m": 1e6, "mn": 1e6, "mln": 1e6, "b": 1e9, "bn": 1e9, "bln": 1e9,
    "tn": 1e12, "k": 1e3,
}
# "thousands of": at least two of the scale, at most the next scale up.
PLURAL_SCALES = {
    "dozens": (24.0, 100.0), "hundreds": (200.0, 1e3), "thousands": (2e3, 1e6),
    "millions": (2e6, 1e9), "billions": (2e9, 1e12),
}
DENOMINATORS = {
    "half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
    "fourth": 4, "fourths": 4, "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6,
    "seventh": 7, "sevenths": 7, "eighth": 8, "eighths": 8, "ninth": 9, "ninths": 9,
    "tenth": 10, "tenths": 10,
}
ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50,
    "sixtieth": 60, "seventieth": 70, "eightieth": 80, "ninetieth": 90, "hundredth": 100,
}
# Spelled numerators of fractions ("two thirds"): the number words one to nineteen.
NUMERATORS = frozenset(w for w in NUMBER_WORDS if 1 <= (english_value(w) or 0) <= 19)
MULTIPLICATIVES = {"twice": 2.0, "thrice": 3.0}
# Tokens a number's unit is read from directly (§4.2.2: "identify known units").
KNOWN_UNITS = {
    "km": "kilometer", "kilometers": "kilometer", "kilometres": "kilometer", "m2": "square meter",
    "mi": "mile", "miles": "mile", "kg": "kilogram", "kilograms": "kilogram", "lb": "pound",
    "lbs": "pound", "mph": "mph", "ft": "foot", "feet": "foot", "cm": "centimeter",
    "mm": "millimeter", "meters": "meter", "metres": "meter", "tons": "ton", "tonnes": "tonne",
    "dollars": "dollar", "euros": "euro", "pounds": "pound", "yen": "yen", "cents": "cent",
    "mw": "megawatt", "megawatts": "megawatt", "acres": "acre", "hours": "hour",
}
# Footnote 16: "per" and "every" mark a recurring quantity; "a year" is the commonest form.
FREQUENCY_MARKERS = {"per", "every", "each", "a", "an"}
TIME_NOUNS = {"second", "minute", "hour", "day", "night", "week", "month", "year", "decade",
               "quarter", "season", "game", "person", "capita", "head", "share"}
# Footnote 17's flux gazetteer, by lemma, with a few synonyms.
INCREASE = {"increase", "rise", "grow", "climb", "jump", "gain", "soar", "raise", "boost",
             "surge", "double", "triple", "up"}
DECREASE = {"decrease", "fall", "drop", "decline", "cut", "reduce", "lower", "plunge", "slip",
             "sink", "shrink", "down", "slash"}
LOCATION_PREPOSITIONS = {"in", "at", "on", "inside", "near", "across", "throughout", "within",
                          "outside", "into", "from", "aboard"}
# Words before a four-digit number that make it a year even when a noun follows ("in 2005 sales").
YEAR_CUES = {"in", "since", "by", "until", "till", "fiscal", "year", "from", "to", "of", "during",
              "before", "after", "early", "late", "mid", "circa", "between", "and"}
_DEICTIC_TIMES = {"today", "yesterday", "tomorrow", "tonight"}
NOT_UNITS = PERCENT | _DEICTIC_TIMES
MONTHS = {"january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december"}
TOKEN = re.compile(
    r"US\$|[$€£¥%]"
    r"|\d+(?:[,.]\d+)*(?:/\d+)?(?:-\d+(?:[,.]\d+)*)?[A-Za-z]*(?:-[A-Za-z]+)*"
    r"|\.\d+"
    r"|(?:[A-Za-z]\.){2,}"
    r"|[A-Za-z]+(?:-[A-Za-z]+)*(?=n't)|n't"
    r"|[A-Za-z]+(?:[-'][A-Za-z]+)*(?<!'s)|'s"
    r"|\S"
)
# An Arabic number, optionally glued to a scale ("374m", "1.3bn"), a range ("20-30"), an ordinal
# suffix ("40th") or a hyphenated unit ("3-year").
GLUED = re.compile(
    r"(?P<a>\d+(?:[,.]\d+)*)(?:-(?P<b>\d+(?:[,.]\d+)*))?"
    r"(?P<suffix>st|nd|rd|th|mln|mn|m|bln|bn|b|tn|k)?(?:-(?P<unit>[A-Za-z-]+))?",
    re.IGNORECASE,
)
