"""Korean (Hangul): case particles are written onto the last word of a name (`트럼프는`,
Trump + topic), so a span leaves them out. English names are written by sound (`토마스`,
Thomas; `캐버노`, Kavanaugh), a consonant cluster broken by the vowel `ㅡ` (`트럼프`, teu-reom-peu:
Trump), so they are compared by sound as well as through the model."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xel.names.script import Family, to_latin
from xel.names.sound import alike_when_folded


class Hangul(Family):
    name = "hangul"
    syllabic = True
    non_rhotic = True
    enclitics = ("에게서", "에게", "에서", "으로", "께서", "이랑", "이나", "은", "는", "이", "가",
                 "을", "를", "의", "와", "과", "도", "에", "로", "만", "랑", "나")

    def sound_readings(self, token: str) -> list[str]:
        return loanword_readings(token)

    def sounds_like(self, forms: Sequence[str], english: str) -> bool:
        """A reading of the part and the English token share their sound key, or (three
        consonants or more) their consonants in order, with what Hangul writes with one letter
        folded (b and v, p and f, j and z, r and l, and voicing, which initial letters do not
        keep: `김`, gim, is Kim)."""
        return alike_when_folded(self.read_out(forms), english, hangul_fold)

    def readings(self, piece: str) -> list[tuple[str, Callable[[str], str]]]:
        """Korean names are romanized many ways (Kim, Gim): compared on one key."""
        return [(korean_key(to_latin(piece)), korean_key)]


# What the many romanizations of Korean write differently (Kim/Gim, Park/Bak, Lee/I,
# Jong/Jeong, Moon/Mun, Un/Eun, Suk/Seok): folded to one key, so a name and a reading compare.
_KOREAN_FOLDS = (("eo", "o"), ("eu", "u"), ("ee", "i"), ("oo", "u"), ("ae", "e"), ("ai", "e"),
                 ("wo", "o"), ("ch", "j"), ("sh", "s"), ("ck", "g"), ("k", "g"), ("t", "d"),
                 ("p", "b"), ("r", "l"), ("u", "o"), ("'", ""), ("-", ""))


def korean_key(romanized: str) -> str:
    """One spelling for the romanizations of a Korean syllable sequence (`jeong-eun`, `jong un`
    both give `jongon`)."""
    key = romanized.casefold().replace(" ", "")
    for old, new in _KOREAN_FOLDS:
        key = key.replace(old, new)
    return key


# Hangul syllables as initial, vowel and final letters (Unicode's arithmetic), read as English
# loanwords spell them: a final `ㅅ` is t (`브렛`, Brett; `스캇`, Scott), `ㄹ` is r before a vowel.
_INITIALS = ("g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k",
             "t", "p", "h")
_VOWELS = ("a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u",
           "wo", "we", "wi", "yu", "eu", "ui", "i")
_FINALS = ("", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m",
           "p", "p", "t", "t", "ng", "t", "t", "k", "t", "p", "t")
_EU = 18  # the vowel `ㅡ`, which Korean writes to break English clusters


def loanword_readings(token: str) -> list[str]:
    """A Hangul word read as the English it writes by sound: with the cluster-breaking `ㅡ`
    left unsaid (`트럼프`: trump) and as written (teureompeu); empty for other text."""
    syllables = []
    for ch in token:
        k = ord(ch) - 0xAC00
        if not 0 <= k < 11172:
            return []
        syllables.append((k // 588, (k % 588) // 28, k % 28))
    said, written = [], []
    for i, (a, v, f) in enumerate(syllables):
        lateral = f == 8 and i + 1 < len(syllables) and syllables[i + 1][0] == 5  # ㄹ + ㄹ: l
        silent = v == _EU and a != 11 and (f == 0 and len(syllables) > 1 or lateral)
        onset = "l" if i and a == 5 and syllables[i - 1][2] == 8 else _INITIALS[a]
        said.append(onset + ("" if silent else _VOWELS[v]) + ("" if lateral else _FINALS[f]))
        written.append(onset + _VOWELS[v] + ("" if lateral else _FINALS[f]))
    return list(dict.fromkeys(["".join(said), "".join(written)]))


def hangul_fold(key: str) -> str:
    """A sound key with the English sounds Hangul writes with one letter made one."""
    return key.translate(str.maketrans("gdbjvzfr", "ktpspspl"))
