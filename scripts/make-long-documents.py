#!/usr/bin/python3
"""Writes Lantern's long-document sample corpus and the evaluation samples over it.

    /usr/bin/python3 scripts/make-long-documents.py [--check | --units]

Writes Sources/Evaluations/Samples/long-documents/ (three PDFs of 20, 40 and 100 pages and
three long Markdown files), Sources/Evaluations/Samples/long-documents-samples.jsonl, and two
text fixtures in Tests/SearchIndexTests/Fixtures/text/ (a PDF set in two columns, Markdown
hard-wrapped at 72 columns). With --check it writes nothing and fails if the files on disk differ
from what it would write; with --units it writes nothing and prints each document's sentences,
headings and lines as it wrote them, the reference the bench's `sentences` section compares
the sentences Lantern reads with.

Python 3.11 standard library only, and deterministic: every document draws its filler from its
own random.Random with a fixed seed, and no date or clock reaches the output, so the same bytes
come out on every run. The filler is prose built from templates and word lists, so BM25 sees
varied text. Each placed fact is one hand-written sentence whose key words occur nowhere else in
the folder; the script refuses to write a corpus where that is not so, or where a prompt holds
its expected fact. The page of a PDF fact is where the generator put it; the line of a Markdown
fact is counted from the file written. See Sources/Evaluations/Samples/README.md.
"""

import json
import random
import re
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "Sources" / "Evaluations" / "Samples"
FOLDER = SAMPLES / "long-documents"
SAMPLES_FILE = SAMPLES / "long-documents-samples.jsonl"
# Text fixtures for the sentence tests and the bench's `sentences` section, not in the corpus.
FIXTURES = ROOT / "Tests" / "SearchIndexTests" / "Fixtures" / "text"


# ---------------------------------------------------------------------------------------------
# Facts and the questions that need them
# ---------------------------------------------------------------------------------------------

@dataclass
class Fact:
    """One placed sentence and the sample that asks for it.

    `page` (PDFs) or `chapter` and `section` (Markdown) say where it goes; `unique` are the words
    that must occur exactly once in the whole folder (in this sentence); `facts` are the short
    substrings a correct answer holds (all of them in the sentence, none in the prompt)."""
    sample: str
    prompt: str
    sentence: str
    facts: list
    unique: list
    page: int = 0
    chapter: str = ""
    section: str = ""


HEATING_FACTS = [
    Fact("expansion-vessel-recharge",
         "Why did the boiler keep losing pressure, and who recharged the expansion vessel?",
         "At 7 Larch Close the Vaillant ecoTEC kept falling below 0.6 bar every week because its "
         "expansion vessel had gone flat; the vessel was recharged to 1.2 bar by technician "
         "Oksana Petrenko on 14 March.",
         ["1.2 bar", "Oksana Petrenko"], ["Larch Close", "Oksana Petrenko", "1.2 bar"], page=40),
    Fact("fault-f28-heronsgate",
         "What was behind the F.28 ignition fault at Heronsgate Farm?",
         "The F.28 ignition fault at Heronsgate Farm was traced to a kinked condensate hose that "
         "had frozen solid; apprentice Tomasz Wierzbicki rerouted it indoors in 32 mm pipe.",
         ["kinked", "Wierzbicki"], ["Heronsgate", "Wierzbicki", "kinked"], page=71),
    Fact("warranty-serial-bx4471",
         "Until when is the boiler with serial number BX-4471-K under warranty?",
         "The extended warranty on serial number BX-4471-K runs until 30 September 2029 under "
         "claim reference WR-88213.",
         ["30 September 2029"], ["BX-4471-K", "30 September 2029", "WR-88213"], page=96),
]

LOGBOOK_FACTS = [
    Fact("spare-rain-gauge",
         "Where was the spare rain gauge put after the lower gauge overflowed?",
         "The lower rain gauge overflowed on 9 August after 61 mm fell in three hours; Ingrid "
         "Solberg emptied it and fixed the spare gauge to the boathouse roof.",
         ["boathouse roof", "61 mm"], ["boathouse", "Ingrid Solberg", "61 mm"], page=33),
    Fact("generator-diesel-delivery",
         "How much diesel did the supply boat bring for the generator, and who delivered it?",
         "The supply boat Sea Tern brought 380 litres of diesel for the generator on 2 July, "
         "delivered by skipper Rasmus Holt.",
         ["380 litres", "Rasmus Holt"], ["Sea Tern", "Rasmus Holt", "380 litres"], page=21),
]

HANDBOOK_FACTS = [
    Fact("cutler-saddle-switchback",
         "How many check steps went into rebuilding the washed-out switchback below Cutler Saddle?",
         "The washed-out switchback below Cutler Saddle was rebuilt with 14 locust-wood check "
         "steps and signed off by crew leader Adaeze Okafor.",
         ["14", "Okafor"], ["Cutler Saddle", "Adaeze Okafor", "locust-wood"], page=17),
    Fact("crosscut-saw-locker",
         "Where is the crew's cross-cut saw stored between work days?",
         "The cross-cut saw nicknamed Old Gretchen was resharpened on 3 May and is stored in "
         "locker 6 at the Pine Hollow tool cache.",
         ["locker 6", "Pine Hollow"], ["Old Gretchen", "Pine Hollow", "locker 6"], page=20),
]

RENOVATION_FACTS = [
    Fact("kitchen-electrical-certificate",
         "Who signed the electrical certificate for the kitchen ring circuit, and what is its number?",
         "Electrician Bogdan Ilescu signed installation certificate EIC-55190 for the kitchen "
         "ring circuit on 21 October, after swapping its breaker for a 32 A RCBO.",
         ["Bogdan Ilescu", "EIC-55190"], ["Bogdan Ilescu", "EIC-55190", "RCBO"],
         chapter="Final Inspection and Snag List", section="Electrical Sign-off"),
    Fact("bathroom-grout-shade",
         "Which grout shade did we use for the bathroom tiles, and where are the leftover bags?",
         "The bathroom grout is shade 132 Sandstone Haze, and the three leftover bags sit on the "
         "top shelf in the garage beside the paint tins.",
         ["Sandstone Haze", "garage"], ["Sandstone Haze", "garage", "paint tins"],
         chapter="Bathroom", section="Grouting and Sealing"),
]

WETLAND_FACTS = [
    Fact("oxygen-probe-returned",
         "Why was the dissolved-oxygen probe sent back to the supplier?",
         "The dissolved-oxygen probe, serial DO-7741, drifted by 0.4 mg/L between calibrations and "
         "was returned to the supplier on 5 November by Dr. Leilani Kahale.",
         ["0.4 mg/L", "Kahale"], ["DO-7741", "Leilani Kahale", "0.4 mg/L"],
         chapter="Appendix C: Equipment Log", section="Probe Calibration Record"),
    Fact("highest-newt-count",
         "What was the highest great crested newt count of the survey, and at which pond?",
         "The highest great crested newt count of the season was 47 adults, at pond P9 on the "
         "night of 18 April.",
         ["47", "P9"], ["47 adults", "pond P9"],
         chapter="Results", section="Great Crested Newt Counts"),
]

ORCHARD_FACTS = [
    Fact("cider-shed-padlock",
         "What is the code for the padlock on the cider shed gate?",
         "The padlock on the north gate of the cider shed opens with code 4-1-9-7, changed on "
         "1 March by treasurer Femi Adeyemi.",
         ["4-1-9-7"], ["4-1-9-7", "Femi Adeyemi"],
         chapter="Contacts, Keys and Codes", section="Gate and Shed Codes"),
    Fact("fire-blight-bramley",
         "Which tree had fire blight, and how far back was it cut?",
         "Fire blight was confirmed on the Bramley in row 12 on 26 June, and Hamid Rostami cut "
         "the limb back 60 cm below the canker and burned the prunings.",
         ["row 12", "60 cm"], ["Hamid Rostami", "row 12", "60 cm"],
         chapter="Pests and Diseases", section="Fire Blight"),
]


# Samples whose answer needs two placed facts: (id, prompt, the facts' sample ids, expected facts).
COMBINED_SAMPLES = [
    ("heating-two-technicians",
     "Which technicians worked on the expansion vessel at Larch Close and on the condensate hose "
     "at Heronsgate Farm?",
     ["expansion-vessel-recharge", "fault-f28-heronsgate"], ["Oksana Petrenko", "Wierzbicki"]),
]


# ---------------------------------------------------------------------------------------------
# Filler: sentences from templates and word lists
# ---------------------------------------------------------------------------------------------

class Filler:
    """Builds plausible, varied sentences for one document from its templates and slot lists.

    A template is a string with {slot} names; each slot is filled with a random choice from
    the document's list of that name (or a number range for the {n...} and {year} slots)."""

    NUMBERS = {
        "n2": (2, 9), "n10": (10, 95), "n100": (110, 950), "year": (1998, 2019), "day": (2, 28),
    }

    def __init__(self, seed, templates, slots):
        self.random = random.Random(seed)
        self.templates = templates
        self.slots = slots
        self.deck = []
        self.written = []  # every sentence dealt, in order: the sentences a reader finds

    def sentence(self):
        # Dealt from a shuffled deck, so every template is used once before any repeats.
        if not self.deck:
            self.deck = self.random.sample(self.templates, len(self.templates))
        template = self.deck.pop()
        def fill(match):
            name = match.group(1)
            if name in self.NUMBERS:
                low, high = self.NUMBERS[name]
                return str(self.random.randint(low, high))
            return self.random.choice(self.slots[name])
        text = re.sub(r"\{(\w+)\}", fill, template)
        self.written.append(text[0].upper() + text[1:])
        return self.written[-1]

    def paragraph(self, low=3, high=7):
        return " ".join(self.sentence() for _ in range(self.random.randint(low, high)))

    def chance(self, probability):
        return self.random.random() < probability


COMMON_SLOTS = {
    "month": ["January", "February", "April", "May", "June", "July", "September", "October",
              "November", "December"],
    "weekday": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
    "adverb": ["usually", "almost always", "rarely", "occasionally", "in most cases", "often",
               "sometimes", "as a rule"],
    "opener": ["In practice,", "As a rule,", "On older installations,", "Where possible,",
               "Before anything else,", "In our experience,", "At this stage,", "Afterwards,",
               "For safety,", "If in doubt,"],
}

HEATING_SLOTS = {
    "part": ["heat exchanger", "diverter valve", "pump", "fan assembly", "gas valve", "flue "
             "terminal", "condensate trap", "pressure sensor", "flow thermistor", "return "
             "thermistor", "ignition electrode", "printed circuit board", "air pressure switch",
             "plate heat exchanger", "automatic air vent", "filling loop", "safety valve",
             "burner", "sump", "magnetic filter"],
    "action": ["inspect", "clean", "test", "replace", "tighten", "isolate", "drain", "flush",
               "record", "adjust", "photograph", "label"],
    "tool": ["manometer", "flue gas analyser", "multimeter", "torque driver", "inhibitor test "
             "kit", "thermal camera", "leak detection spray", "inspection mirror", "hose clamp "
             "pliers", "digital thermometer"],
    "fault": ["low water pressure", "no hot water", "an intermittent lockout", "a noisy pump",
              "a poor flame picture", "a slow heat-up", "short cycling", "kettling",
              "a dripping safety valve", "cold radiators upstairs", "sludge in the system"],
    "symptom": ["kettling", "sludge", "air in the system", "a sticking diverter valve",
                "a blocked magnetic filter", "a failing pump", "poor circulation"],
    "house": ["a terraced house", "a bungalow", "a flat above a shop", "a semi-detached house",
              "a village hall", "a farmhouse", "a converted barn", "a school annexe"],
    "person": ["the installer", "the engineer", "the homeowner", "the site supervisor",
               "the customer", "a second engineer", "the landlord", "the tenant"],
    "pressure": ["1.5 bar", "1.8 bar", "2.5 bar", "3 bar", "0.8 bar", "1.4 bar", "1.6 bar"],
    "temperature": ["75 degrees", "60 degrees", "45 degrees", "55 degrees", "80 degrees"],
    "ordinal": ["second", "third", "fourth", "fifth", "sixth", "seventh", "ninth", "last"],
    "room": ["airing cupboard", "kitchen", "loft", "utility room", "boiler house", "cellar"],
    "note": ["service record", "benchmark checklist", "job sheet", "gas safety record",
             "commissioning report"],
}

HEATING_TEMPLATES = [
    "{opener} {action} the {part} before you open the combustion chamber.",
    "{fault} is {adverb} traced to the {part}, so {action} the {part} first.",
    "With the {tool} connected, the {part} reading should settle within {n2} minutes.",
    "Record the {part} reading on the {note} and leave a copy with {person}.",
    "In {house} the {part} is {adverb} reached from the {room}.",
    "{opener} {fault} came back after {n2} days, which pointed to the {part}.",
    "Never {action} the {part} while the appliance is live; isolate it at the spur first.",
    "The {tool} must be calibrated once a year, and its certificate kept with the {note}.",
    "When {person} reports {fault}, ask how long it has been happening and whether it is worse in {month}.",
    "Let the flow cool below {temperature} before you {action} the {part}.",
    "If the {part} shows corrosion, {action} it and note its condition on the {note}.",
    "The manufacturer lists {n10} checks for the annual service, and the {part} comes {ordinal}.",
    "A system flushed in {year} will {adverb} need its inhibitor topped up by now.",
    "Check the {part} for scale; in hard water areas it builds up within {n2} years.",
    "{person} should be shown where the {part} is and how to read the pressure gauge.",
    "Use the {tool} to confirm the {part} works, then {action} the {part} beside it.",
    "Radiators in the {room} were {adverb} the last to warm, a classic sign of {symptom}.",
    "On the {weekday} visit the {part} was replaced and the system refilled to {pressure}.",
    "A flue that falls towards the terminal traps condensate; it must rise by {n2} degrees at least.",
    "Leave the appliance running for {n10} minutes, then {action} the {part} again.",
    "{opener} write the serial number of the {part} on the {note}.",
    "A weak spark at the {part} often means {fault} is not far behind.",
    "With the pump on speed {n2}, {fault} in {house} disappeared.",
    "Gas rate the appliance over {n100} seconds and compare the figure with the data badge.",
    "{person} in {house} first noticed {fault} during a cold week in {month}.",
    "Cold-fill pressure should be about {pressure}, rising no more than half a bar when hot.",
    "The {tool} showed the {part} running at {temperature} against a setting of {temperature}.",
    "Replace any washer you disturb on the {part}; reused washers weep within {n2} months.",
    "{opener} keep the {tool} in the van and check its battery every {weekday}.",
    "Most call-backs for {fault} come from a {part} that was never cleaned.",
    "The {note} for {house} listed {fault} {n2} times in {n10} months.",
    "Wiring to the {part} runs through the {room}, so lift the floor covering with care.",
]

LOGBOOK_SLOTS = {
    "bird": ["arctic terns", "oystercatchers", "red-throated divers", "ringed plovers",
             "eiders", "great skuas", "purple sandpipers", "snow buntings", "fulmars",
             "black guillemots", "whimbrels", "ravens", "puffins", "kittiwakes", "shags"],
    "place": ["the north beach", "the lower meadow", "the weather mast", "the east cliffs",
              "the lagoon", "the peat cuttings", "the landing stage", "the ridge cairn",
              "the old sheepfold", "the freshwater loch", "the seal skerry", "the west geo"],
    "weather": ["a steady westerly", "drizzle all morning", "fog that lifted by noon",
                "bright sun and a cold wind", "squalls from the north", "a flat calm",
                "low cloud on the ridge", "a gale warning on the radio", "sleet showers"],
    "task": ["ringing", "counting nests", "checking the traps", "reading the gauges",
             "repairing the hide", "logging the tide", "sampling the loch", "clearing the drain",
             "charging the batteries", "mending the fence", "weighing chicks"],
    "name": ["Ewan", "Marta", "Kofi", "Siobhan", "Lars", "Priyanka", "Duncan", "Hana", "Mateo"],
    "gear": ["the spotting scope", "the mist nets", "the water sampler", "the handheld radio",
             "the thermometer screen", "the tide board", "the trail camera", "the drone",
             "the anemometer", "the chick scales"],
    "temperature": ["4 degrees", "9 degrees", "11 degrees", "6 degrees", "13 degrees"],
    "barometer": ["1009 hPa", "996 hPa", "1021 hPa", "1002 hPa", "988 hPa"],
    "wind": ["12 knots", "25 knots", "31 knots", "18 knots", "40 knots"],
    "rain": ["3 mm", "8 mm", "half a millimetre", "12 mm", "nothing at all"],
}

LOGBOOK_TEMPLATES = [
    "{weather}, so the morning went to {task} near {place}.",
    "{name} counted {n10} {bird} on {place} and logged them before breakfast.",
    "The barometer read {barometer} at the evening check and kept falling.",
    "We spent the afternoon {task} while {name} took {gear} to {place}.",
    "{opener} {gear} was wiped down and returned to the store.",
    "{n2} pairs of {bird} were seen displaying near {place}.",
    "{name} noted that the {bird} left {place} when the tide turned.",
    "The evening radio call was short, with {weather} forecast for {weekday}.",
    "Wind at the mast peaked at {wind} just after midnight.",
    "{task} took longer than planned because of {weather}.",
    "A single juvenile among the {bird} was ringed at {place}.",
    "{name} and {name} walked the transect past {place} and found {n2} new nests.",
    "The screen showed {temperature} at dawn, the coldest reading this week.",
    "{opener} the path to {place} is slippery after rain and should be walked in pairs.",
    "We {adverb} see {bird} here from late {month}, and this year was no exception.",
    "Supplies are counted every {weekday}; the tinned food will last another {n10} days.",
    "{gear} stopped working during {task} and went back to the hut to dry.",
    "Seals hauled out on {place} in numbers, {n10} at the peak of low water.",
    "The morning gauge reading was {rain}, and the mast logged {wind} from the south-west.",
    "{name} wrote up the {bird} counts while the rest of us were {task}.",
    "After {weather} the team moved {task} to the sheltered side of {place}.",
    "Entry {n100} in the species list is now confirmed; {name} photographed it at {place}.",
    "{name} cooked, {name} washed up, and the {bird} on {place} kept us awake.",
    "Low water was at {place} by mid-afternoon, so {task} waited until the evening.",
    "{opener} {name} checked {gear} against the inventory and found it complete.",
    "Two days of {weather} left {place} waterlogged and the {bird} unsettled.",
    "The hut thermometer read {temperature} at ten, with {wind} outside.",
    "{name} heard {bird} calling over {place} long after dark.",
]

HANDBOOK_SLOTS = {
    "feature": ["water bar", "drain dip", "check step", "retaining wall", "puncheon",
                "turnpike", "culvert", "switchback", "stone stair", "rolling grade dip",
                "crib wall", "boardwalk"],
    "tool": ["pulaski", "McLeod", "grub hoe", "rock bar", "pick mattock", "bow saw",
             "loppers", "rock sling", "come-along", "hand winch", "fire rake", "tamping bar"],
    "problem": ["tread erosion", "braided trail", "standing water", "root exposure",
                "a cupped tread", "outslope loss", "blowdown", "brush encroachment",
                "a failing culvert", "loose rock"],
    "material": ["native stone", "rot-resistant logs", "crushed gravel", "mineral soil",
                 "cedar planks", "treated posts", "geotextile", "rebar pins"],
    "crew": ["the youth crew", "the weekend volunteers", "the saw crew", "the rock crew",
             "the sawyers", "a two-person crew", "the crew leader", "new volunteers"],
    "slope": ["5 percent", "8 percent", "10 percent", "12 percent", "15 percent", "20 percent"],
}

HANDBOOK_TEMPLATES = [
    "A {feature} built from {material} will {adverb} outlast one built from anything else.",
    "{opener} scout the section for {problem} before the tools come off the truck.",
    "Carry the {tool} blade down and keep {n2} metres from the next person.",
    "Where the grade exceeds {slope}, expect {problem} within a season.",
    "{crew} should be briefed on the {tool} before they use it.",
    "Set the {feature} at an angle of about {n10} degrees to the tread so water leaves the trail.",
    "{problem} is the most common reason a {feature} fails.",
    "Dig the {feature} into {material}, never into organic duff.",
    "A good day for {crew} is {n2} finished {feature}s and no injuries.",
    "{opener} sharpen the {tool} at the end of the day, not the start.",
    "Log every {feature} on the work report with its location and the {material} used.",
    "When {problem} appears on a {feature}, repair it before the next storm.",
    "The {tool} and the {tool} are the two tools no crew should leave behind.",
    "A tread outslope of {slope} keeps water moving across instead of down the trail.",
    "{crew} took {n10} minutes to move the first boulder with the {tool}.",
    "In {month} the ground is soft, so {feature} work goes faster but {problem} is worse.",
    "Wear gloves, eye protection and a helmet whenever the {tool} is in use.",
    "Pack out every scrap of {material} that is not used on the {feature}.",
    "Photograph the {feature} before and after, and file the photos with the work report.",
    "{opener} talk with {crew} about the day's hazards at the trailhead.",
]

RENOVATION_SLOTS = {
    "room": ["kitchen", "bathroom", "hallway", "back bedroom", "front room", "landing",
             "utility room", "attic", "dining room"],
    "job": ["stripping wallpaper", "sanding the floorboards", "replastering the ceiling",
            "fitting skirting boards", "boxing in the pipes", "hanging the doors",
            "levelling the floor", "priming the woodwork", "chasing cables",
            "lifting the old lino"],
    "material": ["lime plaster", "oak flooring", "plasterboard", "ceramic tiles",
                 "chipboard", "insulation slabs", "sash cord", "undercoat", "decorator's caulk",
                 "self-levelling compound"],
    "trade": ["the plasterer", "the plumber", "the joiner", "the roofer", "the tiler",
              "the window fitter", "Dad", "my sister", "the neighbour"],
    "problem": ["damp in the corner", "woodworm in the joists", "a cracked lintel",
                "uneven floorboards", "a sagging ceiling", "lead pipework", "old fuse wiring",
                "a blocked chimney", "rotten sash windows"],
    "shop": ["the builders' merchant", "the timber yard", "the reclamation yard",
             "the hardware shop in town", "the tile warehouse"],
    "cost": ["85 pounds", "140 pounds", "260 pounds", "35 pounds", "410 pounds", "72 pounds",
             "1,150 pounds", "19 pounds"],
    "paint": ["undercoat", "emulsion", "eggshell", "limewash", "primer", "mist coat"],
    "feeling": ["exhausted", "pleased", "frustrated", "relieved", "surprised", "optimistic"],
}

RENOVATION_TEMPLATES = [
    "Spent the {weekday} {job} in the {room}; by evening I was {feeling}.",
    "{trade} came round and spotted {problem} behind the {room} wall.",
    "Bought {material} from {shop} for {cost}, more than we had budgeted.",
    "The {room} still smells of {material}, but it is starting to look like a room again.",
    "{opener} we found {problem}, which set the schedule back by {n2} days.",
    "{trade} quoted {cost} for the {room} and can start in {month}.",
    "{job} took twice as long as the videos suggested.",
    "We agreed to leave the {room} until {problem} is sorted properly.",
    "Another trip to {shop}: {n2} more sheets of {material} and a box of screws.",
    "The dust from {job} got into every cupboard in the house.",
    "{trade} recommended {material} for the {room} instead of what we had planned.",
    "By the end of {month} the {room} had its first coat and we felt {feeling}.",
    "I kept the receipt for the {material}, {cost}, in the blue folder.",
    "{opener} cover the floor before {job}; we learned that the hard way.",
    "We found a newspaper from {year} under the boards in the {room}.",
    "{trade} finished {job} in the {room} while we were at work.",
    "The budget spreadsheet now shows {cost} spent on the {room} alone.",
    "It rained through the {room} ceiling again, and {trade} blamed {problem}.",
    "{n2} coats of {paint} later, the {room} walls are finally smooth.",
    "I spent an hour at {shop} comparing {material} and came home with none.",
]

WETLAND_SLOTS = {
    "species": ["common frog", "common toad", "smooth newt", "palmate newt", "grass snake",
                "water vole", "little grebe", "moorhen", "reed warbler", "emperor dragonfly",
                "banded demoiselle"],
    "pond": ["pond P1", "pond P2", "pond P3", "pond P4", "pond P5", "pond P6", "pond P7",
             "pond P8", "the scrape", "the northern ditch", "the reedbed margin",
             "the outflow channel"],
    "measure": ["pH", "conductivity", "turbidity", "water temperature", "nitrate",
                "phosphate", "dissolved oxygen", "water depth"],
    "method": ["torch survey", "bottle trapping", "egg search", "netting", "eDNA sampling",
               "refuge search", "visual encounter survey", "kick sampling"],
    "finding": ["no significant difference", "a weak positive correlation",
                "a clear seasonal decline", "high variability between visits",
                "a pattern consistent with earlier surveys", "an unexpected peak"],
    "surveyor": ["the survey team", "two surveyors", "the lead ecologist", "volunteers",
                 "the field assistant", "a licensed surveyor"],
    "reading": ["a pH of 6.8", "a pH of 7.9", "a conductivity of 340 microsiemens",
                "a turbidity of 12 NTU", "dissolved oxygen of 9.5 mg/L", "a nitrate level of "
                "2.1 mg/L", "a water temperature of 14 degrees", "a depth of 0.35 m"],
    "air": ["8 degrees", "11 degrees", "13 degrees", "6 degrees"],
}

WETLAND_TEMPLATES = [
    "{method} at {pond} recorded {n10} {species} over {n2} visits.",
    "{pond} gave {reading}, within the range reported in {year}.",
    "{surveyor} carried out the {method} on {n2} nights in {month}.",
    "Analysis of {measure} showed {finding} across the sampled ponds.",
    "{opener} {method} was suspended when water levels at {pond} fell below the trap entrances.",
    "The {species} was recorded at {pond} for the first time since {year}.",
    "Readings of {measure} were taken at the same point each visit to reduce bias.",
    "Table {n2} summarises the {method} results by pond and month.",
    "{surveyor} noted {species} calling from {pond} during the {method}.",
    "Comparison with the {year} baseline suggests {finding} in {measure}.",
    "Vegetation cover at {pond} was estimated at {n10} percent of the margin.",
    "The {method} protocol followed the national guidance, with {n2} traps per pond.",
    "{opener} a reading such as {reading} at {pond} was repeated the next morning.",
    "Shading by willow scrub at {pond} may explain why {measure} showed {finding}.",
    "{species} larvae were abundant in {pond} but scarce in {pond}.",
    "Each {method} visit lasted about {n10} minutes per pond.",
    "Weather during the {method} was mild, with air temperatures near {air}.",
    "The data show {finding}, although the sample of {n10} visits is small.",
    "{surveyor} photographed every {species} to allow individual identification.",
    "Water samples for {measure} were stored cold and analysed within {n2} days.",
    "We recommend repeating the {method} at {pond} in {month} of next year.",
]

ORCHARD_SLOTS = {
    "variety": ["Cox", "Egremont Russet", "Discovery", "Blenheim Orange", "Ashmead's Kernel",
                "Worcester Pearmain", "Conference pear", "Victoria plum", "Kingston Black",
                "Dabinett", "Morello cherry"],
    "task": ["winter pruning", "mulching", "grafting", "thinning the fruitlets", "mowing the "
             "paths", "checking the tree guards", "picking", "pressing", "planting whips",
             "staking the young trees", "feeding the soil"],
    "member": ["new members", "the work party", "the committee", "the pruning group",
               "the press team", "volunteers", "the tree warden", "families with children"],
    "pest": ["codling moth", "woolly aphid", "apple scab", "canker", "rosy apple aphid",
             "brown rot", "winter moth", "bitter pit", "powdery mildew"],
    "tool": ["pruning saw", "secateurs", "long-arm pruner", "grafting knife", "fruit picker",
             "scratter", "rack-and-cloth press", "wheelbarrow", "ladder"],
    "blade": ["pruning saw", "secateurs", "long-arm pruner", "grafting knife", "loppers"],
    "spacing": ["10", "12", "15", "20"],
    "place": ["the top terrace", "the lower field", "the heritage row", "the nursery bed",
              "the wildflower strip", "the pond corner", "the hedge line", "the shed yard"],
    "amount": ["20 litres", "45 kilograms", "a dozen sacks", "three crates", "90 litres",
               "two trailer loads", "half a tonne"],
    "juice": ["20 litres", "90 litres", "140 litres", "35 litres", "two demijohns"],
}

ORCHARD_TEMPLATES = [
    "{task} on {place} starts in {month} and is led by {member}.",
    "The {variety} trees on {place} {adverb} crop well in alternate years.",
    "Watch for {pest} on the {variety}; it shows first on {place}.",
    "{opener} clean the {blade} between trees to stop {pest} spreading.",
    "{member} brought {amount} of apples to the press day in {month}.",
    "The mowing rota for {place} is pinned inside the shed door.",
    "The {variety} grafted by {member} in {year} fruited for the first time this year.",
    "The {variety} planted in {year} is now the tallest tree on {place}.",
    "Only trained members may use the {blade} on the {variety} trees.",
    "{task} takes about {n2} work parties if enough {member} turn up.",
    "{pest} was worse this year, especially on {place}.",
    "The {tool} is kept in the shed and signed out in the book.",
    "{opener} ask {member} before taking fruit from {place}.",
    "We pressed {juice} of juice from the {variety} and {variety} mix.",
    "Thin the {variety} to one fruit per cluster, about {spacing} centimetres apart.",
    "{member} planted {n2} new {variety} whips on {place}.",
    "Grease bands against {pest} go on in {month} and come off in spring.",
    "The {variety} is self-sterile, so it needs a pollinator within {n10} metres.",
    "{task} is the best way for {member} to learn the trees.",
    "Leave the windfalls on {place} for the wildlife unless {pest} is present.",
    "Our records from {year} list {n10} trees on {place}, most of them {variety}.",
    "Bring gloves to {task}; the shed has spares for {member}.",
    "{opener} the {variety} on {place} is picked before the {variety}.",
]


def filler(seed, templates, slots):
    return Filler(seed, templates, {**COMMON_SLOTS, **slots})


# ---------------------------------------------------------------------------------------------
# PDF: a minimal writer (Type1 Helvetica, WinAnsi text, one content stream per page)
# ---------------------------------------------------------------------------------------------

# Helvetica advance widths (1/1000 em) for ASCII 32...126, from the standard AFM metrics.
HELVETICA_WIDTHS = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
]

PAGE_WIDTH, PAGE_HEIGHT = 612, 792
MARGIN_LEFT, TOP, BOTTOM = 72, 720, 86
TEXT_WIDTH = PAGE_WIDTH - 2 * MARGIN_LEFT
BODY_SIZE, BODY_LEADING = 10.5, 14
HEADING_SIZE, HEADING_LEADING = 13, 20


def text_width(text, size):
    # Bold glyphs are a little wider; measuring everything 5% wide keeps both inside the margin.
    return sum(HELVETICA_WIDTHS[ord(c) - 32] for c in text) * size / 1000 * 1.05


def wrap(text, size, width=TEXT_WIDTH):
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, size) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


def pdf_string(text):
    if any(not 32 <= ord(c) <= 126 for c in text):
        raise ValueError(f"not printable ASCII: {text!r}")
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def write_pdf(title, pages):
    """Returns a PDF's bytes. `pages` is a list of pages, each a list of (font, size, x, y, text)
    with font "F1" (Helvetica) or "F2" (Helvetica-Bold)."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        None,  # the page tree, once the page objects are numbered
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
        f"<< /Title {pdf_string(title)} /Producer (Lantern make-long-documents.py) >>".encode(),
    ]
    kids = []
    for runs in pages:
        content = "".join(f"BT /{font} {size} Tf {x:g} {y:g} Td {pdf_string(text)} Tj ET\n"
                          for font, size, x, y, text in runs).encode()
        page_number = len(objects) + 1
        kids.append(f"{page_number} 0 R")
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_WIDTH} {PAGE_HEIGHT}] "
                       f"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> "
                       f"/Contents {page_number + 1} 0 R >>".encode())
        objects.append(f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"endstream")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(pages)} >>".encode()

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 5 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode()
    return bytes(out)


@dataclass
class PDFDocument:
    file: str
    title: str
    subtitle: str
    pages: int
    chapters: list  # (title, first page, [section titles])
    facts: list
    filler: Filler
    text: str = ""  # the words of every page, for the uniqueness check
    lines: list = field(default_factory=list)  # headings, contents lines and page footers
    columns: int = 1


def lay_out_pdf(document):
    """Fills each page with headings and filler paragraphs; a fact page opens with the fact's
    paragraph, so the whole sentence lands on that page. Returns the PDF's bytes."""
    facts = {fact.page: fact for fact in document.facts}
    # Each chapter's sections start on pages spread evenly over the chapter's pages.
    headings = {}
    bounds = [first for _, first, _ in document.chapters] + [document.pages + 1]
    for number, (title, first, sections) in enumerate(document.chapters, start=1):
        headings.setdefault(first, []).append((16, f"{number}. {title}"))
        span = bounds[number] - first
        for index, section in enumerate(sections):
            start = first + index * span // len(sections)
            headings.setdefault(start, []).append((HEADING_SIZE, f"{number}.{index + 1} {section}"))
    gutter = 24
    width = (TEXT_WIDTH - gutter * (document.columns - 1)) / document.columns
    pages = []
    for page in range(1, document.pages + 1):
        runs = []
        fact = facts.get(page)
        top = TOP
        if page == 1:
            # the title block spans the page; the columns start below it
            def title_line(text, size):
                nonlocal top
                top -= 4
                runs.append(("F2", size, MARGIN_LEFT, top, text))
                document.lines.append(text)
                top -= HEADING_LEADING
            title_line(document.title, 20)
            title_line(document.subtitle, HEADING_SIZE)
            top -= BODY_LEADING
            title_line("Contents", HEADING_SIZE)
            for number, (title, first, _) in enumerate(document.chapters, start=1):
                runs.append(("F1", BODY_SIZE, MARGIN_LEFT, top, f"{number}. {title} ... page {first}"))
                document.lines.append(runs[-1][-1])
                top -= BODY_LEADING
            top -= BODY_LEADING
        for column in range(document.columns):
            x, y = MARGIN_LEFT + column * (width + gutter), top
            def heading(text, size=HEADING_SIZE):
                nonlocal y
                y -= 4
                runs.append(("F2", size, x, y, text))
                document.lines.append(text)
                y -= HEADING_LEADING
            def paragraph(sentences):
                nonlocal y
                for line in wrap(" ".join(sentences), BODY_SIZE, width):
                    runs.append(("F1", BODY_SIZE, x, y, line))
                    y -= BODY_LEADING
                y -= BODY_LEADING / 2
            def room_for(sentences):
                return y - len(wrap(" ".join(sentences), BODY_SIZE, width)) * BODY_LEADING >= BOTTOM

            for size, text in headings.get(page, []) if column == 0 else []:
                heading(text, size)
            while True:
                sentences = [document.filler.sentence() for _ in range(document.filler.random.randint(1, 3))]
                if fact:
                    sentences.append(fact.sentence)
                for _ in range(document.filler.random.randint(2, 5)):
                    sentence = document.filler.sentence()
                    if room_for(sentences + [sentence]):
                        sentences.append(sentence)
                if not room_for(sentences):
                    break
                paragraph(sentences)
                fact = None
                if y - 3 * BODY_LEADING < BOTTOM:
                    break
        if fact:
            raise RuntimeError(f"{document.file}: the fact for page {page} did not fit")
        runs.append(("F1", 9, MARGIN_LEFT, 48, f"{document.title} - page {page} of {document.pages}"))
        document.lines.append(runs[-1][-1])
        pages.append(runs)
    document.text = " ".join(text for runs in pages for *_, text in runs)
    return write_pdf(document.title, pages)


def heating_manual():
    chapters = [
        ("Safety and Regulations", 2, ["Gas safety", "Electrical isolation", "Working at height", "Carbon monoxide"]),
        ("Appliance Overview", 9, ["Main components", "Data badge", "Controls", "Clearances"]),
        ("Installation", 17, ["Siting the appliance", "Wall mounting", "Gas supply", "Water connections"]),
        ("Flue and Air Supply", 27, ["Flue options", "Terminal positions", "Plume kits", "Flue checks"]),
        ("System Pressure and Expansion", 35, ["Filling the system", "Expansion vessels", "Pressure loss", "Safety valve"]),
        ("Commissioning", 45, ["First fire", "Gas rate", "Combustion analysis", "Handover"]),
        ("Annual Service", 55, ["Visual inspection", "Burner and electrodes", "Condensate route", "Records"]),
        ("Fault Finding", 66, ["Fault codes", "Ignition faults", "Sensor faults", "Pump and valve faults"]),
        ("Replacement of Parts", 78, ["Heat exchanger", "Fan", "Gas valve", "Circuit board"]),
        ("Controls and Wiring", 86, ["Room thermostats", "Weather compensation", "Wiring centres"]),
        ("Appendix: Warranty and Service History", 93, ["Warranty terms", "Registered appliances", "Service history"]),
    ]
    return PDFDocument("heating-service-manual.pdf", "Heating Service Manual",
                       "Wall-hung condensing boilers: installation, service and fault finding",
                       100, chapters, HEATING_FACTS, filler(1101, HEATING_TEMPLATES, HEATING_SLOTS))


def field_logbook():
    chapters = [
        ("Arrival and Set-up, May", 2, ["Opening the huts", "Power and water", "Safety briefing"]),
        ("June", 8, ["Seabird colonies", "Weather notes", "Maintenance"]),
        ("July", 17, ["Supplies", "Ringing", "Visitors"]),
        ("August", 26, ["Storms", "Gauges and instruments", "Counts"]),
        ("September and Close-down", 35, ["Migration", "Winterising", "Inventory"]),
    ]
    return PDFDocument("field-station-logbook.pdf", "Skerry Point Field Station Logbook",
                       "Daily log of the 2026 season", 40, chapters, LOGBOOK_FACTS,
                       filler(2202, LOGBOOK_TEMPLATES, LOGBOOK_SLOTS))


def trail_handbook():
    chapters = [
        ("Crew Safety", 2, ["Tool safety", "Weather and lightning", "First aid"]),
        ("Drainage", 6, ["Water bars", "Drain dips", "Culverts"]),
        ("Tread and Structures", 11, ["Tread work", "Check steps", "Retaining walls"]),
        ("Work Reports", 16, ["Recent projects", "Inspection"]),
        ("Tools and Caches", 19, ["Tool care", "Cache inventory"]),
    ]
    return PDFDocument("trail-maintenance-handbook.pdf", "Trail Maintenance Handbook",
                       "For volunteer crews of the Ridge Trails Association", 20, chapters,
                       HANDBOOK_FACTS, filler(3303, HANDBOOK_TEMPLATES, HANDBOOK_SLOTS))


# ---------------------------------------------------------------------------------------------
# Markdown: a heading tree of #, ## and ###, paragraphs one per line
# ---------------------------------------------------------------------------------------------

@dataclass
class MarkdownDocument:
    file: str
    title: str
    words: int  # roughly how many words of filler
    chapters: list  # (title, [section titles])
    facts: list
    filler: Filler
    placed: dict = field(default_factory=dict)  # sample id -> (heading path, line)
    text: str = ""
    lines: list = field(default_factory=list)  # headings
    wrap: int = 0  # hard-wrap paragraphs and list items at this many columns (0: one line each)


def lay_out_markdown(document):
    """Writes the document's lines: a # title, each ## chapter with its ### sections, filler
    paragraphs and the odd list; a fact goes into the middle of its section. Records each fact's
    heading path and 1-based line in `document.placed`."""
    sections = sum(len(s) for _, s in document.chapters)
    per_section = document.words // sections
    facts = {(fact.chapter, fact.section): fact for fact in document.facts}
    lines = [f"# {document.title}", ""]
    document.lines.append(document.title)
    random_ = document.filler.random
    lines += [document.filler.paragraph(4, 6), ""]
    for chapter, section_titles in document.chapters:
        lines += [f"## {chapter}", "", document.filler.paragraph(2, 4), ""]
        document.lines.append(chapter)
        for section in section_titles:
            lines += [f"### {section}", ""]
            document.lines.append(section)
            fact = facts.pop((chapter, section), None)
            words = 0
            paragraphs = []
            while words < per_section * random_.uniform(0.8, 1.2):
                if document.filler.chance(0.12):
                    items = [f"- {document.filler.sentence()}" for _ in range(random_.randint(3, 5))]
                    paragraphs.append(items)
                else:
                    paragraphs.append([document.filler.paragraph()])
                words += sum(len(item.split()) for item in paragraphs[-1])
            if fact:
                middle = len(paragraphs) // 2
                before = document.filler.paragraph(1, 3)
                after = document.filler.paragraph(1, 3)
                paragraphs.insert(middle, [f"{before} {fact.sentence} {after}"])
                line = len(lines) + sum(len(p) + 1 for p in paragraphs[:middle]) + 1
                path = " > ".join([document.title, chapter, section])
                document.placed[fact.sample] = (path, line)
            for paragraph in paragraphs:
                lines += paragraph + [""]
    if facts:
        raise RuntimeError(f"{document.file}: no section for {sorted(facts)}")
    if document.wrap:
        if document.facts:
            raise RuntimeError(f"{document.file}: a hard-wrapped document's fact lines would move")
        lines = [wrapped for line in lines for wrapped in hard_wrap(line, document.wrap)]
    document.text = "\n".join(lines).rstrip("\n") + "\n"
    return document.text.encode()


def hard_wrap(line, width):
    """A Markdown line as an editor that wraps at `width` columns writes it: headings and blank
    lines as they are, a list item's continuation lines indented under its text."""
    if not line or line.startswith("#"):
        return [line]
    indent = "  " if line.startswith("- ") else ""
    return textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)


def renovation_journal():
    chapters = [
        ("Buying the House", ["The survey", "First walk-round", "Budget"]),
        ("Kitchen", ["Stripping out", "Plumbing", "Units and Worktops", "Tiling"]),
        ("Bathroom", ["Removing the Old Suite", "Waterproofing", "Tiling the Walls", "Grouting and Sealing"]),
        ("Bedrooms and Landing", ["Ceilings", "Floorboards", "Decorating"]),
        ("Windows and Doors", ["Sash Repairs", "Front Door", "Draught Proofing"]),
        ("Garden and Outside", ["Gutters", "Shed", "Paths"]),
        ("Final Inspection and Snag List", ["Snags", "Building Control Visit", "Electrical Sign-off"]),
    ]
    return MarkdownDocument("house-renovation-journal.md", "Renovation Journal: 14 Alder Street",
                            10500, chapters, RENOVATION_FACTS,
                            filler(4404, RENOVATION_TEMPLATES, RENOVATION_SLOTS))


def wetland_report():
    chapters = [
        ("Summary", ["Purpose", "Main Findings"]),
        ("Introduction", ["Site Description", "History of the Site", "Previous Surveys"]),
        ("Methods", ["Survey Design", "Amphibian Surveys", "Water Quality Sampling", "Data Analysis"]),
        ("Results", ["Survey Effort", "Common Frog and Toad", "Smooth and Palmate Newts", "Great Crested Newt Counts", "Water Quality"]),
        ("Discussion", ["Population Trends", "Habitat Condition", "Limitations"]),
        ("Recommendations", ["Pond Management", "Future Monitoring"]),
        ("Appendix A: Pond Descriptions", ["Northern Ponds", "Southern Ponds"]),
        ("Appendix B: Raw Counts", ["Spring Visits", "Summer Visits"]),
        ("Appendix C: Equipment Log", ["Traps and Torches", "Water Quality Meters", "Probe Calibration Record"]),
    ]
    return MarkdownDocument("wetland-survey-report.md",
                            "Marsh Creek Wetland: Amphibian and Water Quality Survey 2025",
                            17500, chapters, WETLAND_FACTS,
                            filler(5505, WETLAND_TEMPLATES, WETLAND_SLOTS))


def orchard_handbook():
    chapters = [
        ("Welcome", ["About the Orchard", "How Membership Works"]),
        ("The Trees", ["Apple Varieties", "Pears and Plums", "Cherries and Quinces", "Tree Map"]),
        ("The Orchard Year", ["Winter", "Spring", "Summer", "Autumn"]),
        ("Pruning", ["Why We Prune", "Formative Pruning", "Renovating Old Trees", "Summer Pruning"]),
        ("Planting and Grafting", ["Choosing Rootstocks", "Planting Whips", "Grafting Days"]),
        ("Pests and Diseases", ["Codling Moth", "Scab and Canker", "Aphids", "Fire Blight"]),
        ("Harvest and Pressing", ["Picking", "Storage", "Press Day", "Juice and Cider"]),
        ("Wildlife", ["Hedges", "Meadow", "Bees"]),
        ("Health and Safety", ["Ladders", "Tools", "Children in the Orchard"]),
        ("Contacts, Keys and Codes", ["Committee", "Key Holders", "Gate and Shed Codes"]),
    ]
    return MarkdownDocument("orchard-members-handbook.md",
                            "Hillside Community Orchard: Members' Handbook",
                            24000, chapters, ORCHARD_FACTS,
                            filler(6606, ORCHARD_TEMPLATES, ORCHARD_SLOTS))


# ---------------------------------------------------------------------------------------------
# Samples, checks and output
# ---------------------------------------------------------------------------------------------

def two_column_guide():
    chapters = [
        ("Before You Go", 1, ["Permits", "What to carry"]),
        ("On the Trail", 2, ["Pacing", "Water"]),
        ("Camp", 3, ["Choosing a site", "Leaving no trace"]),
    ]
    return PDFDocument("two-column-field-guide.pdf", "Ridge Trails Field Guide",
                       "Set in two columns, as newsletters and papers are", 4, chapters, [],
                       filler(3313, HANDBOOK_TEMPLATES, HANDBOOK_SLOTS), columns=2)


def hard_wrapped_notes():
    chapters = [
        ("Pruning", ["Winter Pruning", "Summer Pruning"]),
        ("Harvest", ["Picking", "Storing"]),
    ]
    return MarkdownDocument("hard-wrapped-orchard-notes.md", "Orchard Notes, Wrapped at 72 Columns",
                            2500, chapters, [], filler(7707, ORCHARD_TEMPLATES, ORCHARD_SLOTS), wrap=72)


def units(document):
    """What a reader takes as one sentence or line of `document`: every sentence written into
    it (dealt by its filler, or a fact), its headings, contents lines and page footers."""
    return document.filler.written + [fact.sentence for fact in document.facts] + document.lines


def sample_line(identifier, prompt, facts, passages):
    """One line of the samples file; `passages` are {"file", "page"} or {"file", "heading", "line"}."""
    sample = {
        "id": identifier,
        "prompt": prompt,
        "expectedIdentifiers": sorted({passage["file"] for passage in passages}),
        "expectedFacts": facts,
        "expectedPassages": passages,
        "trajectory": {"unordered": [{"tool": "spotlight_search", "arguments": ["query"]}]},
    }
    return json.dumps(sample, ensure_ascii=False)


def check(documents):
    """Fails unless every fact's sentence holds its expected facts, its unique words occur once
    in the whole folder, and its prompt holds none of its expected facts."""
    problems = []
    texts = [document.text for document in documents]
    for document in documents:
        for fact in document.facts:
            for expected in fact.facts:
                if expected.lower() not in fact.sentence.lower():
                    problems.append(f"{fact.sample}: {expected!r} is not in its sentence")
                if expected.lower() in fact.prompt.lower():
                    problems.append(f"{fact.sample}: the prompt holds {expected!r}")
    sentences = {fact.sample: fact.sentence for document in documents for fact in document.facts}
    for identifier, prompt, parts, facts in COMBINED_SAMPLES:
        for expected in facts:
            if not any(expected.lower() in sentences[part].lower() for part in parts):
                problems.append(f"{identifier}: {expected!r} is in none of its facts' sentences")
            if expected.lower() in prompt.lower():
                problems.append(f"{identifier}: the prompt holds {expected!r}")
    for document in documents:
            for word in fact.unique:
                count = sum(text.lower().count(word.lower()) for text in texts)
                if count != 1:
                    problems.append(f"{fact.sample}: {word!r} occurs {count} times in the folder")
    if problems:
        raise SystemExit("make-long-documents.py: " + "\n  ".join(["refusing to write:"] + problems))


def build():
    """Returns {file name: bytes} for every document, the samples file and the text fixtures,
    and each document's units (`units`)."""
    outputs, lines = {}, []
    pdfs = [trail_handbook(), field_logbook(), heating_manual()]
    markdowns = [renovation_journal(), wetland_report(), orchard_handbook()]
    passages = {}  # sample id -> where its fact was placed
    for document in pdfs:
        outputs[document.file] = lay_out_pdf(document)
        for fact in document.facts:
            passages[fact.sample] = {"file": document.file, "page": fact.page}
    for document in markdowns:
        outputs[document.file] = lay_out_markdown(document)
        for fact in document.facts:
            path, line = document.placed[fact.sample]
            passages[fact.sample] = {"file": document.file, "heading": path, "line": line}
    for document in pdfs + markdowns:
        lines += [sample_line(fact.sample, fact.prompt, fact.facts, [passages[fact.sample]])
                  for fact in document.facts]
    lines += [sample_line(identifier, prompt, facts, [passages[part] for part in parts])
              for identifier, prompt, parts, facts in COMBINED_SAMPLES]
    outputs[SAMPLES_FILE.name] = ("\n".join(lines) + "\n").encode()
    check(pdfs + markdowns)
    guide, notes = two_column_guide(), hard_wrapped_notes()
    outputs[guide.file] = lay_out_pdf(guide)
    outputs[notes.file] = lay_out_markdown(notes)
    return outputs, {document.file: units(document) for document in pdfs + markdowns + [guide, notes]}


def destination(name):
    if name == SAMPLES_FILE.name:
        return SAMPLES_FILE
    return FIXTURES / name if name in (two_column_guide().file, hard_wrapped_notes().file) else FOLDER / name


def main():
    outputs, document_units = build()
    if "--units" in sys.argv[1:]:
        # JSON Lines on stdout, one document a line: what the bench's sentences section compares with
        for name, written in document_units.items():
            print(json.dumps({"file": str(destination(name).relative_to(ROOT)), "units": written}, ensure_ascii=False))
        return
    if "--check" in sys.argv[1:]:
        stale = [name for name, data in outputs.items()
                 if not destination(name).exists() or destination(name).read_bytes() != data]
        if stale:
            raise SystemExit(f"out of date (run scripts/make-long-documents.py): {', '.join(stale)}")
        return
    for name, data in outputs.items():
        destination(name).parent.mkdir(parents=True, exist_ok=True)
        destination(name).write_bytes(data)
        print(f"{destination(name).relative_to(ROOT)}: {len(data)} bytes")


if __name__ == "__main__":
    main()
