"""Logistics timelines with parallel events (UnSeenTimeQA): generate new
records and answer benchmark items."""
