"""The reviewer packet: Markdown comment, terminal text and SARIF from one frozen input."""

from pr_review.packet.markdown import BUDGET, render_packet
from pr_review.packet.model import PacketInput
from pr_review.packet.sections import MARKER
from pr_review.packet.state import parse_state, render_state

__all__ = ["BUDGET", "MARKER", "PacketInput", "parse_state", "render_packet", "render_state"]
