"""Classroom tools over the backends: explanations, search traces, their replay page, the ladder."""
