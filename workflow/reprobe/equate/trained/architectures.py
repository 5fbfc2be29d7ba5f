"""Each trained baseline's recipe, and where every choice comes from.

EQUATE names the models and their sources (§4.1) and says only "All models, except Q-REAS are
trained on MultiNLI" (CoNLL §5); it gives no hyperparameter and ships no baseline code. So each
model follows the released code its paper points to, at the commits read:

- CBOW, BiLSTM: "the simple BiLSTM model described by" Williams et al. (2018), nyu-mll/multiNLI
  (`python/models/cbow.py`, `bilstm.py`, `util/parameters.py`, `train_mnli.py`). Sum of
  embeddings / BiLSTM states averaged ("### Mean pooling"), "### Mou et al. concat layer ###"
  `[premise, hypothesis, premise - hypothesis, premise * hypothesis]`, `hidden_embedding_dim`
  300, `--learning_rate` 0.0004 with `tf.train.AdamOptimizer`, `batch_size` 32, `seq_length` 50
  (every set padded or cut to it), GloVe 840B; the README's commands train with
  `--keep_rate 0.9 --emb_train` (dropout 0.1, embeddings fine-tuned), words without a vector
  drawn N(0, 1) ("Doing a random normal initialization for OOV words"). Stopping: the code's
  rule, train accuracy's progress over the last five epochs under 0.1 or 30,000 steps past the
  best.
- CH: "Stacked BiLSTM-RNNs with shortcut connections and character word embeddings (Chen et
  al., 2017b)", lukecq1231/enc_nli (`main.py`, `train.py`): `dim=600`, three layers
  (`encoder_1..3`), layer input `concatenate([ctx1, emb1])`, character embeddings of 15 with
  filter rows 5, 3 and 1 (`char_nout = 100` each), pooling `concatenate([mean_1, max_1,
  gate_1])` with the gate the norm of the input gates, `[rep1, rep2, abs(rep1-rep2),
  rep1*rep2]`, two ReLU layers the second also reading the features, dropout 0.5, fixed
  GloVe (`Wemb` left out of the gradient), `n_words=100140`, Adam `lrate=0.0004`,
  `clip_c=10.`, `batch_size=32`, `maxlen=450`; the learning rate halved and the best weights
  reloaded when the dev error is not a new minimum, stopping after `patience=7` halvings.
- InferSent: "A single-layer BiLSTM-RNN model with max-pooling (Conneau et al., 2017)",
  facebookresearch/InferSent (`train_nli.py`, `models.py`): `enc_lstm_dim` 2048, `pool_type`
  max, `torch.cat((u, v, torch.abs(u-v), u*v), 1)`, `fc_dim` 512, `optimizer "sgd,lr=0.1"`,
  `decay 0.99` per epoch, `lrshrink 5` when dev accuracy does not improve, `minlr 1e-5`,
  `n_epochs 20`, `batch_size 64`, `max_norm 5.`, no dropout, fixed GloVe, words without a
  vector dropped and `<s>`/`</s>` added. The paper's classifier has one hidden layer; the code's
  default (`nonlinear_fc=0`) stacks two linear layers with no non-linearity: both are built
  (`classifier: paper | released_code`), the paper's in the table's row.
- SSEN: "Stacked BiLSTM-RNNs with shortcut connections (Nie and Bansal, 2017)",
  easonnie/multiNLI_encoder (`stack_3bilstm_last_encoder.py`): `h_size=[512, 1024, 2048]`, each
  layer reading the embeddings and every layer below, "# Only use the last layer" max-pooled,
  `[s1, s2, abs(s1 - s2), s1 * s2]`, `mlp_d=1600`, `dropout_r=0.1`, Adam `start_lr = 2e-4`
  halved every two epochs (`i // 2`) for six epochs, batch 32, sentences cut at `max_l=60` in
  training and 150 in evaluation (`model.max_l = 150`), embeddings fine-tuned. Its recipe adds
  15% of SNLI (`combined_set`); EQUATE says MultiNLI, so MultiNLI alone here.
- ESIM: "Sequential inference model proposed by Chen et al. (2017a) which uses BiLSTMs with an
  attention mechanism", its authors' lukecq1231/nli (`scripts/ESIM`): `dim=300`, a shared
  encoder, the ReLU projection of the enhanced states, a shared composition BiLSTM, mean and
  max pooling, a tanh layer, dropout 0.5, GloVe fine-tuned (the gradient covers `Wemb`), words
  without a vector N(0, 0.01²), Adam `lrate=0.0004`, `clip_c=10.`, `batch_size=32`,
  `maxlen=100`, and the halve-and-reload rule with `patience=7`.
- ALIGN: no source beyond its phrase (`align.py`).

Every model selects its weights on MultiNLI dev-matched, as the released code does
(`valid_datasets` in enc_nli, `dev` = "matched" in InferSent's data script); the selection is
made once an epoch. The recipes' numbers are the papers' and are not settings; what the papers
leave open (ALIGN's threshold, a cap on epochs, the width of a stand-in) is in the schema.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from reprobe.equate.trained.align import ALIGN
from reprobe.equate.trained.batches import TextRule
from reprobe.equate.trained.embedding import scaled, word_embedding
from reprobe.equate.trained.encoders import CBOW, CH, SSEN, BiLSTMEncoder, CharCNN, InferSent
from reprobe.equate.trained.esim import ESIM
from reprobe.equate.trained.vocabulary import Vocabulary


@dataclass(frozen=True)
class Recipe:
    """How one baseline is trained (its paper's or released code's values)."""

    optimizer: str  # adam | sgd
    lr: float
    batch_size: int
    schedule: str  # williams | chen | infersent | nie | fixed (schedules.py)
    max_epochs: int | None  # None: until the schedule stops
    clip_norm: float | None
    text: TextRule
    fine_tune: bool
    oov_scale: float


@dataclass(frozen=True)
class RowShape:
    """What a row's config changes in a model: its width, InferSent's classifier, ALIGN's
    unaligned threshold."""

    width: float = 1.0
    classifier: str = "paper"
    unaligned: float = 0.5


WILLIAMS = TextRule(max_tokens=50)
RECIPES: dict[str, Recipe] = {
    "align": Recipe("adam", 0.01, 32, "fixed", 5, None, TextRule(), False, 0.0),
    "cbow": Recipe("adam", 0.0004, 32, "williams", None, None, WILLIAMS, True, 1.0),
    "bilstm": Recipe("adam", 0.0004, 32, "williams", None, None, WILLIAMS, True, 1.0),
    "ch": Recipe("adam", 0.0004, 32, "chen", None, 10.0,
                 TextRule(word_limit=100140, train_drop_longer=450, chars=True), False, 0.01),
    "infersent": Recipe("sgd", 0.1, 64, "infersent", 20, 5.0,
                        TextRule(wrap=True, vectored_only=True), False, 0.0),
    "ssen": Recipe("adam", 0.0002, 32, "nie", 6, None,
                   TextRule(max_tokens=150, train_max_tokens=60), True, 1.0),
    "esim": Recipe("adam", 0.0004, 32, "chen", None, 10.0, TextRule(train_drop_longer=100),
                   True, 0.01),
}
ARCHITECTURES = tuple(RECIPES)


def _align(e: nn.Embedding, v: Vocabulary, s: RowShape) -> nn.Module:
    return ALIGN(e, v.words, s.unaligned)


def _cbow(e: nn.Embedding, v: Vocabulary, s: RowShape) -> nn.Module:
    return CBOW(e, scaled(300, s.width), 0.1)


def _bilstm(e: nn.Embedding, v: Vocabulary, s: RowShape) -> nn.Module:
    return BiLSTMEncoder(e, scaled(300, s.width), 0.1)


def _ch(e: nn.Embedding, v: Vocabulary, s: RowShape) -> nn.Module:
    chars = CharCNN(len(v.chars), 15, scaled(100, s.width), (5, 3, 1))
    return CH(e, chars, scaled(600, s.width), scaled(600, s.width), 0.5)


def _infersent(e: nn.Embedding, v: Vocabulary, s: RowShape) -> nn.Module:
    return InferSent(e, scaled(2048, s.width), scaled(512, s.width), s.classifier)


def _ssen(e: nn.Embedding, v: Vocabulary, s: RowShape) -> nn.Module:
    return SSEN(e, tuple(scaled(n, s.width) for n in (512, 1024, 2048)),
                scaled(1600, s.width), 0.1)


def _esim(e: nn.Embedding, v: Vocabulary, s: RowShape) -> nn.Module:
    return ESIM(e, scaled(300, s.width), 0.5)


BUILDERS: dict[str, Callable[[nn.Embedding, Vocabulary, RowShape], nn.Module]] = {
    "align": _align, "cbow": _cbow, "bilstm": _bilstm, "ch": _ch, "infersent": _infersent,
    "ssen": _ssen, "esim": _esim}


def build_model(architecture: str, vocabulary: Vocabulary, vectors: np.ndarray,
                has_vector: np.ndarray, shape: RowShape, seed: int) -> nn.Module:
    """A baseline's untrained model over the vocabulary's vectors (seeded)."""
    recipe = RECIPES[architecture]
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    embedding = word_embedding(vectors, has_vector, oov_scale=recipe.oov_scale,
                               fine_tune=recipe.fine_tune, generator=generator)
    return BUILDERS[architecture](embedding, vocabulary, shape)
