"""encodings"""
