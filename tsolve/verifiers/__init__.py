"""verifiers"""
