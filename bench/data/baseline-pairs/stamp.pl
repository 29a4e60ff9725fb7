#!/usr/bin/perl
# Prefixes each line with a GitHub Actions style ISO timestamp (7 fractional digits).
use strict; use warnings; use Time::HiRes qw(gettimeofday); use POSIX qw(strftime);
$| = 1;
while (my $l = <STDIN>) {
  my ($s, $us) = gettimeofday();
  printf "%s.%07dZ %s", strftime("%Y-%m-%dT%H:%M:%S", gmtime($s)), $us * 10, $l;
}
