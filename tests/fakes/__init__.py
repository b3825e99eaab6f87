"""Loopback fakes of external services, shared by every test package."""
