"""The outlook against its anchor, nekobean/mahjong-cpp, on the same hands in one run.

Run on demand (`python tests/bench/bench_outlook_anchor.py`), never in the suite. For each
family and shanten (1 and 2) it takes the hands of tests/bench/bench_outlook.py (seeded, 14
tiles, no melds), weighs every discard with this project's outlook (cold: its caches emptied)
and with mahjong-cpp's `ExpectedScoreCalculator` (C++, riichi, built here), and prints each
side's CPU time a hand, the states each searched, the time per state and the ratio.

States are counted as mahjong-cpp counts its graph's vertices: each hand of 13 tiles waiting for
a draw and each of 14 tiles choosing a discard, once. The anchor runs in the configuration
nearest this outlook's model: the same number of draws, a draw kept only when it lowers the
shanten (`extra = 0`, no shanten down, no exchanges at the same shanten), no red fives, no
hidden dora; in the families without honours, no honour is in its wall. Its scoring is riichi's,
so the two sides' values differ; the work searched is what is compared.

mahjong-cpp is GPL-3.0: none of its code is in this repository. The bench builds it at run
time, in a cache folder (MAHJONG_CPP_BUILD, default ~/.cache/mahjong-calculator-bench), from
a checkout named by MAHJONG_CPP_SRC, else from a shallow `git clone` of its public repository.
It needs g++ (C++17), Boost 1.81 or later (headers and Boost.Filesystem), RapidJSON and spdlog:
on Debian 12, `apt-get install g++ libboost1.81-dev libboost-filesystem1.81-dev rapidjson-dev
libspdlog-dev`. When one is missing it says which and exits 0 without a ratio. Its tables of
shanten by suit (data/config/suits_table.bin, not kept in its repository) are made once by its
own tool, `create_distance_table`, built with a small stand-in for the two cppitertools
functions that tool uses (written below, this project's own code).
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.advice.outlook import _CACHE, DEFAULT_DRAWS, outlook  # noqa: E402
from app.hands.efficiency import clear_tables  # noqa: E402
from app.rules.loader import registry  # noqa: E402
from app.vocabulary.discard import calculate_discards  # noqa: E402
from tests.advice.outlook_hands import FAMILIES, dealt  # noqa: E402

HANDS = int(os.environ.get("BENCH_HANDS", "15"))
REPEATS = int(os.environ.get("BENCH_ANCHOR_REPEATS", "3"))   # the anchor's runs a hand (median)
REPOSITORY = "https://github.com/nekobean/mahjong-cpp"
BUILD = Path(os.environ.get("MAHJONG_CPP_BUILD",
                            Path.home() / ".cache" / "mahjong-calculator-bench"))

# The anchor's driver (this project's code): one hand a line, "<tiles in mpsz> <draws>
# <honours 0/1> <repeats>", answered "<median CPU microseconds> <vertices searched>".
DRIVER = r"""
#include <algorithm>
#include <ctime>
#include <iostream>
#include <numeric>
#include <vector>
#include "mahjong/mahjong.hpp"
using namespace mahjong;
int main()
{
    std::string tiles;
    int draws, honours, repeats;
    while (std::cin >> tiles >> draws >> honours >> repeats) {
        TableConfig table_config;
        table_config.rule_flags = RuleFlag::Default;
        table_config.game_mode = GameMode::Yonma;
        RoundState round;
        round.round_wind = Tile::East;
        round.round_number = 1;
        round.honba = 0;
        TableState table;
        table.kyotaku = 0;
        PlayerState player;
        player.hand = from_mpsz(tiles);
        player.seat_wind = Tile::East;
        ExpectedScoreCalculator::Config config;
        config.t_max = draws;
        config.extra = 0;
        config.enable_reddora = false;
        config.enable_uradora = false;
        config.enable_shanten_down = false;
        config.enable_tegawari = false;
        MergedCount wall = create_wall(table_config, table, player, config.enable_reddora);
        if (!honours) {
            for (int i = 27; i < 34; ++i) wall[i] = 0;
        }
        config.sum = std::accumulate(wall.begin(), wall.begin() + 34, 0);
        std::vector<double> times;
        int searched = 0;
        for (int r = 0; r < repeats; ++r) {
            const std::clock_t start = std::clock();
            const auto found = ExpectedScoreCalculator::calc(config, table_config, round,
                                                             table, player, wall);
            times.push_back(1e6 * (std::clock() - start) / CLOCKS_PER_SEC);
            searched = std::get<1>(found);
        }
        std::sort(times.begin(), times.end());
        std::cout << times[times.size() / 2] << " " << searched << std::endl;
    }
}
"""

# A stand-in for the two cppitertools functions create_distance_table.cpp uses (this
# project's code): each returns every combination as a vector.
ITERTOOLS = r"""
#pragma once
#include <array>
#include <cstddef>
#include <tuple>
#include <vector>
namespace iter {
template <typename A, typename B>
std::vector<std::tuple<int, int>> product(const A &a, const B &b)
{
    std::vector<std::tuple<int, int>> out;
    for (int x : a) for (int y : b) out.emplace_back(x, y);
    return out;
}
template <typename A, typename B, typename C>
std::vector<std::tuple<int, int, int>> product(const A &a, const B &b, const C &c)
{
    std::vector<std::tuple<int, int, int>> out;
    for (int x : a) for (int y : b) for (int z : c) out.emplace_back(x, y, z);
    return out;
}
template <std::size_t N, typename A>
std::vector<std::array<int, N>> product(const A &a)
{
    std::vector<int> items(a.begin(), a.end());
    std::vector<std::array<int, N>> out;
    std::array<std::size_t, N> at{};
    while (true) {
        std::array<int, N> one;
        for (std::size_t i = 0; i < N; ++i) one[i] = items[at[i]];
        out.push_back(one);
        std::size_t i = N;
        while (i > 0 && ++at[i - 1] == items.size()) at[--i] = 0;
        if (i == 0) return out;
    }
}
template <typename A>
std::vector<std::vector<int>> combinations_with_replacement(const A &a, int r)
{
    std::vector<int> items(a.begin(), a.end());
    std::vector<std::vector<int>> out;
    std::vector<int> at(r, 0);
    if (items.empty() && r > 0) return out;
    while (true) {
        std::vector<int> one;
        for (int i : at) one.push_back(items[i]);
        out.push_back(one);
        int i = r - 1;
        while (i >= 0 && at[i] == static_cast<int>(items.size()) - 1) --i;
        if (i < 0) return out;
        ++at[i];
        for (int j = i + 1; j < r; ++j) at[j] = at[i];
    }
}
}
"""


class Skip(Exception):
    """The anchor cannot be built here: why."""


def _run(args: list[str], cwd: Path | None = None, **kw) -> subprocess.CompletedProcess:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, **kw)
    if done.returncode:
        raise Skip(f"{' '.join(args[:3])} … failed:\n{done.stderr[-2000:]}")
    return done


def _flags(package: str) -> list[str]:
    found = subprocess.run(["pkg-config", "--cflags", "--libs", package], capture_output=True,
                           text=True)
    return found.stdout.split() if found.returncode == 0 else []


def _source() -> Path:
    named = os.environ.get("MAHJONG_CPP_SRC")
    if named:
        src = Path(named)
        if not (src / "src" / "mahjong").is_dir():
            raise Skip(f"MAHJONG_CPP_SRC={named} holds no src/mahjong")
        return src
    src = BUILD / "mahjong-cpp"
    if not (src / "src" / "mahjong").is_dir():
        if shutil.which("git") is None:
            raise Skip("no git to download mahjong-cpp (or name a checkout in MAHJONG_CPP_SRC)")
        BUILD.mkdir(parents=True, exist_ok=True)
        try:
            _run(["git", "clone", "--depth", "1", REPOSITORY, str(src)], timeout=300)
        except (Skip, subprocess.TimeoutExpired) as err:
            raise Skip(f"cannot download mahjong-cpp ({err}); name a checkout in"
                       " MAHJONG_CPP_SRC") from None
    return src


def _check_toolchain() -> None:
    if shutil.which("g++") is None:
        raise Skip("no C++ toolchain (g++)")
    probe = "#include <boost/version.hpp>\n#if BOOST_VERSION < 108100\n#error old\n#endif\n" \
            "#include <boost/unordered/unordered_flat_map.hpp>\n#include <boost/dll.hpp>\n" \
            "#include <rapidjson/document.h>\n#include <spdlog/spdlog.h>\nint main(){}\n"
    done = subprocess.run(["g++", "-std=c++17", "-x", "c++", "-fsyntax-only", "-"], input=probe,
                          capture_output=True, text=True)
    if done.returncode:
        raise Skip("Boost >= 1.81, RapidJSON or spdlog headers missing (Debian 12: apt-get"
                   " install libboost1.81-dev libboost-filesystem1.81-dev rapidjson-dev"
                   " libspdlog-dev)")


def build() -> Path:
    """The anchor's driver, built (once) with the shanten tables beside it; Skip if it cannot."""
    _check_toolchain()
    src = _source()
    out = BUILD / "out"
    driver = out / "outlook_anchor"
    if driver.exists() and (out / "suits_table.bin").exists():
        return driver
    out.mkdir(parents=True, exist_ok=True)
    (out / "shim" / "cppitertools").mkdir(parents=True, exist_ok=True)
    for name in ("product.hpp", "combinations_with_replacement.hpp"):
        (out / "shim" / "cppitertools" / name).write_text(ITERTOOLS)
    (out / "driver.cpp").write_text(DRIVER)
    core = sorted(str(p) for p in (src / "src" / "mahjong").rglob("*.cpp"))
    libs = ["-lboost_filesystem", "-ldl", *(_flags("spdlog") or ["-lspdlog", "-lfmt"])]
    common = ["g++", "-std=c++17", "-O2", "-DNDEBUG", f"-I{src / 'src'}", f"-I{out / 'shim'}"]
    print("building mahjong-cpp (a minute or two) …", flush=True)
    _run([*common, *core, str(out / "driver.cpp"), "-o", str(driver), *libs])
    config = src / "data" / "config"
    for table in config.glob("*.json"):
        shutil.copy(table, out / table.name)
    if not (config / "suits_table.bin").exists() or (config / "suits_table.bin").stat().st_size < 1000:
        tool = out / "create_distance_table"
        _run([*common, f'-DCMAKE_CONFIG_DIR="{out}"', *core,
              str(src / "src" / "tools" / "shanten_table" / "create_distance_table.cpp"),
              "-o", str(tool), *libs, "-ltbb"] if _has_tbb() else
             [*common, f'-DCMAKE_CONFIG_DIR="{out}"', *core,
              str(src / "src" / "tools" / "shanten_table" / "create_distance_table.cpp"),
              "-o", str(tool), *libs])
        print("making its shanten tables …", flush=True)
        _run([str(tool)], cwd=out)
    else:
        for table in config.glob("*.bin"):
            shutil.copy(table, out / table.name)
    return driver


def _has_tbb() -> bool:
    return subprocess.run(["g++", "-x", "c++", "-fsyntax-only", "-"], capture_output=True,
                          input="#include <tbb/tbb.h>\nint main(){}\n", text=True).returncode == 0


def mpsz(counts) -> str:
    """Tile counts in mahjong-cpp's notation (e.g. 123m55z).

    >>> mpsz([1, 1, 1] + [0] * 28 + [2, 0, 0])
    '123m55z'
    """
    said = ""
    for s, suit in enumerate("mpsz"):
        ranks = "".join(str(r + 1) * counts[9 * s + r] for r in range(9 if s < 3 else 7))
        said += f"{ranks}{suit}" if ranks else ""
    return said


def ours(result, rulesets) -> tuple[float, int]:
    """The outlook of one analysed hand, cold: CPU ms and vertices searched."""
    _CACHE.clear()
    clear_tables()
    cpu = time.process_time()
    found = outlook(result, DEFAULT_DRAWS, rulesets)
    return 1000 * (time.process_time() - cpu), found.vertices


def main() -> int:
    rulesets = registry()
    try:
        driver = build()
    except Skip as why:
        print(f"skipped: the anchor was not built: {why}")
        return 0
    anchor = subprocess.Popen([str(driver)], cwd=driver.parent, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    print(f"outlook over {DEFAULT_DRAWS} draws, {HANDS} hands a family and shanten, CPU time;"
          f" load average {os.getloadavg()[0]:.1f}")
    print(f"{'family':18} {'shanten':>7} {'ours ms':>8} {'cpp ms':>7} {'ours st':>7} "
          f"{'cpp st':>7} {'ours µs/st':>10} {'cpp µs/st':>9} {'ratio':>6} {'worst':>6}")
    worst = 0.0
    for shanten in (1, 2):
        for rules in FAMILIES:
            rows = []
            for params in dealt(rules, shanten, HANDS, rulesets):
                result = calculate_discards(params, rulesets)
                if result.hand.melds:
                    continue
                ms, states = ours(result, rulesets)
                anchor.stdin.write(f"{mpsz(result.hand.concealed_counts)} {DEFAULT_DRAWS} "
                                   f"{int(result.ruleset.honours)} {REPEATS}\n")
                anchor.stdin.flush()
                us, searched = anchor.stdout.readline().split()
                rows.append((ms, states, float(us) / 1000, int(searched)))
            per = [(1000 * ms / st) / (1000 * cms / cst) for ms, st, cms, cst in rows]
            ratio = statistics.median(per)
            worst = max(worst, ratio)
            print(f"{rules:18} {shanten:>7} {statistics.median(r[0] for r in rows):>8.1f} "
                  f"{statistics.median(r[2] for r in rows):>7.2f} "
                  f"{int(statistics.median(r[1] for r in rows)):>7} "
                  f"{int(statistics.median(r[3] for r in rows)):>7} "
                  f"{statistics.median(1000 * r[0] / r[1] for r in rows):>10.1f} "
                  f"{statistics.median(1000 * r[2] / r[3] for r in rows):>9.2f} "
                  f"{ratio:>5.1f}× {max(per):>5.1f}×", flush=True)
    anchor.stdin.close()
    anchor.wait()
    print(f"per state, ours against mahjong-cpp: at most {worst:.1f}× (median of each row's"
          f" hands; target <= 8×); load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
