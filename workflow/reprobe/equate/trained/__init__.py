"""EQUATE's trained NLI baselines (§4.1): ALIGN, CBOW, BiLSTM, CH, InferSent, SSEN and ESIM,
trained here on MultiNLI, each following its original paper and released code
(`architectures.py` quotes the choices), scored like every other Table 6 row.

The sub-pipeline: `vocabulary.py` (the training words and their pretrained vectors, read in one
streaming pass), `batches.py` (pairs as padded, length-bucketed tensors), `layers.py` and
`encoders.py`/`esim.py`/`align.py` (the models), `schedules.py` and `training.py` (each
paper's optimiser and stopping rule, resumable), `saved.py` (a trained model's folder, and its
predictions).
"""
