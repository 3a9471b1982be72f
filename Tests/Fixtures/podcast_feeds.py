#!/usr/bin/env python3
"""Podcast feeds for the tests, made at test time, and podcastparser's reading of them.

  podcast_feeds.py generate DIR [SEED]   writes feed-*.xml: the shapes real generators write
      (iTunes tags under any prefix, CDATA, entities, HTML descriptions, Atom, Podcasting 2.0
      chapters, relative URLs, missing and repeated GUIDs, missing titles, media:content,
      serial order, zones and two-digit years)
  podcast_feeds.py big FILE COUNT [SEED] writes one RSS feed of COUNT episodes with show notes
      of about 1.4 KB each, as long-running shows carry (5,000 episodes: about 10 MB), for the bench
  podcast_feeds.py time FILE URL RUNS    podcastparser's CPU time (process time) to parse FILE,
      the median of RUNS parses in this one process, as JSON {"median": S, "episodes": N}
  podcast_feeds.py oracle FILE URL       prints podcastparser's episodes of FILE as served at
      URL: a JSON list of {title, published, url, length, guid}, the first enclosure's URL
      and length (null without one), an episode listed twice (same GUID, same enclosure) once
"""
import json
import random
import sys
import os

ITUNES = "http://www.itunes.com/dtds/podcast-1.0.dtd"
PODCAST = "https://podcastindex.org/namespace/1.0"
MEDIA = "http://search.yahoo.com/mrss/"
CONTENT = "http://purl.org/rss/1.0/modules/content/"
ATOM = "http://www.w3.org/2005/Atom"

DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def rfc822(rng, index):
    day = 1 + index % 28
    month = rng.randrange(12)
    year = rng.choice([2019, 2020, 2021, 2022, 2023, 2024])
    clock = "%02d:%02d:%02d" % (rng.randrange(24), rng.randrange(60), rng.randrange(60))
    zone = rng.choice(["+0000", "GMT", "-0500", "+0200", "EST", "PDT", "UT", "+0530"])
    form = rng.randrange(4)
    if form == 0:
        return "%s, %02d %s %d %s %s" % (rng.choice(DAYS), day, MONTHS[month], year, clock, zone)
    if form == 1:
        return "%d %s %d %s %s" % (day, MONTHS[month], year, clock, zone)
    if form == 2:
        return "%s, %d %s %02d %s %s" % (rng.choice(DAYS), day, MONTHS[month], year % 100, clock[:5], zone)
    return "  %s,  %02d %s %d %s %s \n" % (rng.choice(DAYS), day, MONTHS[month], year, clock, zone)


def iso(rng, index):
    zone = rng.choice(["Z", "+02:00", "-07:00", "+00:00"])
    return "%d-%02d-%02dT%02d:%02d:%02d%s" % (rng.choice([2020, 2023]), 1 + rng.randrange(12), 1 + index % 28,
                                              rng.randrange(24), rng.randrange(60), rng.randrange(60), zone)


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def rss_item(rng, index, prefix):
    lines = ["<item>"]
    shape = rng.randrange(10)
    title = rng.choice(["Episode %d" % index, "Épisode %d: <b>bold</b> & more" % index, "  Spaced\n   title %d  " % index,
                        "Quotes \"%d\" 'here'" % index])
    if shape != 7:
        if rng.random() < 0.4:
            lines.append("<title><![CDATA[%s]]></title>" % title)
        else:
            lines.append("<title>%s</title>" % escape(title))
    url = rng.choice(["https://cdn.example.com/show/ep%d.mp3" % index, "media/ep%d.mp3" % index, "/abs/ep%d.m4a" % index,
                      "../up/ep%d.mp3" % index, "ep%d.mp3?token=%d&amp;x=1" % (index, index),
                      "HTTP://CDN.Example.COM/Mixed/ep%d.mp3" % index, "https://cdn.example.com"])
    length = rng.choice(['length="%d"' % rng.randrange(1, 10**9), 'length="0"', '', 'length="unknown"', 'length=" 1234 "'])
    kind = rng.choice(['type="audio/mpeg"', '', 'type="audio"', 'type="audio/x-m4a"'])
    if shape == 5:
        lines.append('<media:content url="%s" fileSize="%d" type="audio/mpeg"/>' % (url, rng.randrange(1, 10**6)))
    elif shape != 6:
        lines.append('<enclosure url="%s" %s %s/>' % (url, length, kind))
    guid_shape = rng.randrange(6)
    if guid_shape == 0:
        lines.append('<guid isPermaLink="false">urn:uuid:%08x-%d</guid>' % (rng.randrange(2**32), index))
    elif guid_shape == 1:
        lines.append('<guid>https://example.com/episodes/%d</guid>' % index)
    elif guid_shape == 2:
        lines.append('<guid>ep/%d</guid>' % index)
    elif guid_shape == 3:
        lines.append('<link>https://example.com/page/%d</link>' % index)
    elif guid_shape == 4:
        lines.append('<guid isPermaLink="false">  spaced-%d  </guid>' % index)
    if rng.random() < 0.8:
        lines.append("<pubDate>%s</pubDate>" % rfc822(rng, index))
    lines.append("<%s:duration>%s</%s:duration>" % (prefix, rng.choice(["1:02:03", "45:10", "3600", "12.5", ""]), prefix))
    if rng.random() < 0.5:
        lines.append("<description><![CDATA[<p>Show notes for <a href=\"https://x.example/\">%d</a></p><ul><li>one</li></ul>]]></description>" % index)
    else:
        lines.append("<description>Plain notes %d &amp; more &#233;</description>" % index)
    if rng.random() < 0.3:
        lines.append('<podcast:chapters url="chapters/%d.json" type="application/json+chapters"/>' % index)
    if rng.random() < 0.2:
        lines.append("<content:encoded><![CDATA[<h1>Notes %d</h1>]]></content:encoded>" % index)
    lines.append("</item>")
    return "\n".join(lines)


def rss_feed(rng, count, prefix="itunes", serial=False, extra=""):
    items = [rss_item(rng, index, prefix) for index in range(count)]
    if rng.random() < 0.5 and items:
        items.append(items[0])  # listed twice
    header = ('<?xml version="1.0" encoding="UTF-8"?>\n'
              '<rss version="2.0" xmlns:%s="%s" xmlns:podcast="%s" xmlns:media="%s" xmlns:content="%s" xmlns:atom="%s">\n'
              '<channel>\n<title><![CDATA[Generated & show]]></title>\n<link>https://example.com/</link>\n'
              '<atom:link href="https://example.com/feed.xml" rel="self" type="application/rss+xml"/>\n'
              '<description>A test feed</description>\n<%s:author>Someone</%s:author>\n%s%s\n'
              % (prefix, ITUNES, PODCAST, MEDIA, CONTENT, ATOM, prefix, prefix,
                 "<%s:type>serial</%s:type>\n" % (prefix, prefix) if serial else "", extra))
    return header + "\n".join(items) + "\n</channel>\n</rss>\n"


def atom_feed(rng, count):
    entries = []
    for index in range(count):
        parts = ["<entry>", "<id>tag:example.com,2020:%d</id>" % index if index % 5 else "",
                 "<title type=\"text\">Atom entry %d</title>" % index]
        if index % 3 == 0:
            parts.append("<published>%s</published>" % iso(rng, index))
        parts.append("<updated>%s</updated>" % iso(rng, index))
        parts.append('<link rel="alternate" type="text/html" href="https://example.com/a/%d"/>' % index)
        parts.append('<link rel="enclosure" type="audio/mpeg" length="%d" href="%s"/>'
                     % (rng.randrange(1, 10**8), rng.choice(["audio/a%d.mp3" % index, "https://cdn.example.com/a%d.mp3" % index])))
        parts.append('<content type="html">&lt;p&gt;Entry %d&lt;/p&gt;</content>' % index)
        parts.append("</entry>")
        entries.append("\n".join(p for p in parts if p))
    return ('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="%s">\n<title>Atom show</title>\n'
            '<link rel="alternate" type="text/html" href="https://example.com/"/>\n' % ATOM
            + "\n".join(entries) + "\n</feed>\n")


def generate(directory, seed):
    rng = random.Random(seed)
    os.makedirs(directory, exist_ok=True)
    feeds = {
        "feed-itunes.xml": rss_feed(rng, 12),
        "feed-prefix.xml": rss_feed(rng, 12, prefix="it"),
        "feed-serial.xml": rss_feed(rng, 8, serial=True),
        "feed-moved.xml": rss_feed(rng, 5, extra="<itunes:new-feed-url>https://new.example.com/feed.xml</itunes:new-feed-url>"),
        "feed-atom.xml": atom_feed(rng, 10),
        "feed-large.xml": rss_feed(rng, 300),
    }
    for name, text in feeds.items():
        with open(os.path.join(directory, name), "w", encoding="utf-8") as out:
            out.write(text)


def oracle(path, url):
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "build", "python"))
    import podcastparser
    with open(path, "rb") as source:
        parsed = podcastparser.parse(url, source)
    result, seen = [], set()
    for episode in parsed["episodes"]:
        enclosure = episode["enclosures"][0] if episode["enclosures"] else None
        key = (episode["guid"], enclosure["url"] if enclosure else None)
        if key in seen:
            continue
        seen.add(key)
        result.append({"title": episode["title"], "published": episode["published"], "guid": episode["guid"],
                       "url": enclosure["url"] if enclosure else None,
                       "length": enclosure["file_size"] if enclosure else None})
    json.dump({"title": parsed.get("title"), "new_url": parsed.get("new_url"), "episodes": result}, sys.stdout)


NOTES = ("<p>In this episode we talk about the week's news, answer listeners' questions and read the mail. "
         "Links, corrections and the full transcript are on the show's site; thanks to everyone who wrote in.</p>")


def big(path, count, seed):
    rng = random.Random(seed)
    items = []
    for index in range(count):
        item = rss_item(rng, index, "itunes")
        notes = "<content:encoded><![CDATA[<h2>Episode %d</h2>%s]]></content:encoded>\n</item>" % (index, NOTES * 8)
        items.append(item[:-len("</item>")] + notes)
    header = ('<?xml version="1.0" encoding="UTF-8"?>\n'
              '<rss version="2.0" xmlns:itunes="%s" xmlns:podcast="%s" xmlns:media="%s" xmlns:content="%s">\n'
              '<channel>\n<title>A long-running show</title>\n<link>https://example.com/</link>\n'
              '<description>Years of episodes</description>\n' % (ITUNES, PODCAST, MEDIA, CONTENT))
    with open(path, "w", encoding="utf-8") as out:
        out.write(header + "\n".join(items) + "\n</channel>\n</rss>\n")


def time_parse(path, url, runs):
    import time
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "build", "python"))
    import podcastparser
    times, episodes = [], 0
    for _ in range(runs):
        with open(path, "rb") as source:
            start = time.process_time()
            parsed = podcastparser.parse(url, source)
            times.append(time.process_time() - start)
        episodes = len(parsed["episodes"])
    times.sort()
    json.dump({"median": times[len(times) // 2], "episodes": episodes}, sys.stdout)


if __name__ == "__main__":
    if sys.argv[1] == "generate":
        generate(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 27)
    elif sys.argv[1] == "big":
        big(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 27)
    elif sys.argv[1] == "time":
        time_parse(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        oracle(sys.argv[2], sys.argv[3])
