package minutes.http;

import static minutes.ApiServer.ALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import minutes.ApiServer;
import minutes.StoreIndependent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The docs page in a real browser: Debian's headless Chromium loads /docs, the user pastes a
 * key under Authorize, runs a search, and sees the hits. Skipped, saying so, without Chromium.
 */
@StoreIndependent
class DocsPageTest {
  private static final File CHROMIUM = new File("/usr/bin/chromium");
  private static final File CHROMEDRIVER = new File("/usr/bin/chromedriver");

  @RegisterExtension static final ApiServer api = new ApiServer();
  @TempDir static Path profile;
  private static WebDriver browser;

  @BeforeAll
  static void startBrowser() {
    Assumptions.assumeTrue(CHROMIUM.canExecute() && CHROMEDRIVER.canExecute(),
        "SKIPPED: no /usr/bin/chromium and /usr/bin/chromedriver, so the docs page is not tested in a browser "
            + "(install them: apt-get install -y chromium chromium-driver; .ci/run does)");
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(CHROMEDRIVER).usingAnyFreePort().build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    // The flags the machine notes ask for: no sandbox as root, and no calls to Google's hosts.
    options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--user-data-dir=" + profile, "--window-size=1280,2400");
    browser = new ChromeDriver(service, options);
  }

  @AfterAll
  static void stopBrowser() {
    if (browser != null) browser.quit();
  }

  /** Opens /docs and authorizes with the workspace key, as a user does. */
  private static WebDriverWait openAndAuthorize() {
    WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
    browser.get(api.uri("/docs").toString());
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".info .title"), "minutes API"));

    browser.findElement(By.cssSelector("button.authorize")).click();
    WebElement keyField = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".modal-ux input")));
    keyField.sendKeys(api.key(ALL));
    browser.findElement(By.cssSelector(".modal-ux .auth-btn-wrapper button.authorize")).click();
    browser.findElement(By.cssSelector(".modal-ux button.btn-done")).click();
    return wait;
  }

  @Test
  void aUserAuthorizesWithAKeyRunsASearchAndSeesTheHits() {
    WebDriverWait wait = openAndAuthorize();
    WebElement search = browser.findElement(By.id("operations-search-search"));
    search.findElement(By.cssSelector(".opblock-summary")).click();
    WebElement q = wait.until(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector("#operations-search-search tr[data-param-name='q'] input")));
    q.sendKeys(Keys.chord(Keys.CONTROL, "a"), "Quarterly planning"); // replaces the example the page fills in
    search.findElement(By.cssSelector("button.execute")).click();

    WebElement status = wait.until(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector("#operations-search-search .live-responses-table .response .response-col_status")));
    assertEquals("200", status.getText().trim());
    By result = By.cssSelector("#operations-search-search .live-responses-table tr.response .response-col_description");
    wait.until(ExpectedConditions.textToBePresentInElementLocated(result, "matched_in"));
    String body = browser.findElement(result).getText();
    assertTrue(body.contains("\"query\": \"Quarterly planning\""), body);
    assertTrue(body.contains("\"title\": \"Quarterly planning with Müller\""), body);
    String curl = browser.findElement(By.cssSelector("#operations-search-search .curl-command")).getText();
    assertTrue(curl.contains("Authorization: Bearer " + api.key(ALL)), curl);
    List<String> errors = browser.findElements(By.cssSelector(".errors-wrapper")).stream().map(WebElement::getText).toList();
    assertTrue(errors.isEmpty(), "the page reports no errors about the document: " + errors);
  }

  /** The change feed from the page: start without since, then paste next_cursor into since and read on. */
  @Test
  void aUserPagesThroughTheChangeFeedByPastingNextCursorIntoSince() {
    WebDriverWait wait = openAndAuthorize();
    WebElement changes = browser.findElement(By.id("operations-changes-listChanges"));
    changes.findElement(By.cssSelector(".opblock-summary")).click();
    String first = execute(wait, changes, "next_cursor");
    Matcher cursor = Pattern.compile("\"next_cursor\": \"([A-Za-z0-9_-]+)\"").matcher(first);
    assertTrue(cursor.find(), first);

    String id = new java.util.UUID(18, 1).toString();
    minutes.CliRun imported = api.cli("import", minutes.TestLines.file(api.dir(), minutes.TestLines.meeting(id, "zqdocs")).toString());
    assertEquals(0, imported.code(), imported.err());
    WebElement since = changes.findElement(By.cssSelector("tr[data-param-name='since'] input"));
    since.sendKeys(Keys.chord(Keys.CONTROL, "a"), cursor.group(1));
    String next = execute(wait, changes, id);
    assertTrue(next.contains("\"meeting_id\": \"" + id + "\""), next);
    assertTrue(next.contains("\"change\": \"upsert\""), next);
  }

  /** Presses Execute on an operation and returns the body it then shows, once that holds {@code expected}; its status is 200. */
  private static String execute(WebDriverWait wait, WebElement operation, String expected) {
    By body = By.cssSelector("#" + operation.getAttribute("id") + " .live-responses-table tr.response .response-col_description");
    operation.findElement(By.cssSelector("button.execute")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(body, expected));
    String status = operation.findElement(By.cssSelector(".live-responses-table .response .response-col_status")).getText();
    assertEquals("200", status.trim());
    return browser.findElement(body).getText();
  }
}
