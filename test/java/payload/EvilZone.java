// EvilZone.java - an unchecked class named by a system property:
// java.time's ZoneRulesProvider loads and initialises the class
// java.time.zone.DefaultZoneRulesProvider names, with the system loader.
public class EvilZone {
	static {
		System.out.println("DENYLIST-BYPASSED property");
	}
}
