"""Environments of En Dodoi for PettingZoo's AEC API, laid out as
PettingZoo's classic games: ``from endodoi.envs import endodoi_v0``."""
