"""What the Discord layer shows: the table message, private hands, pings, pictures and card emojis."""
