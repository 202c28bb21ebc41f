"""Camera to card events, in three layers: ``recognize`` (a picture -> the cards in it), ``table``
(reads over time -> stable card events -> the record's events) and ``training`` (how the networks
were made and are measured)."""
