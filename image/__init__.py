"""The Action image test: the Dockerfile executed in a debootstrapped Debian root (``make
image-test``; see ``image/__main__.py``)."""
