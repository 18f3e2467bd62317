"""A club's season (saison, championnat): its tournaments' rankings added up into championship points.

brest-2011 IX and cpt87 1.2-1.3: points by the place won in each tournament, by a formula or a table the
club sets before the season, to the hundredth; only members score, visitors keep their place in a
tournament's ranking and lose their points, as does a player disqualified or one who did not check out.
`season_file` reads the club's TOML; `points` and `standings` are pure; `cli` is `tapis season`.
"""
