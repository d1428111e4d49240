// The menu and the page's words, built from the server's welcome and the game's view
// module: title, tagline, help, legend, bot levels and seat choices (index.html has
// none of them, so nothing there can disagree with the server).

const $ = (id) => document.getElementById(id);

/** The game's words and choices in the page: title, help, legend, bot levels, seats. */
export function buildMenu(ui, game, welcome) {
  const seats = game.seats,
    rules = welcome.rules;
  document.title = game.long_name;
  $("title").innerHTML = ui.TITLE_HTML;
  $("tagline").textContent = ui.tagline(rules);
  $("help-body").innerHTML = ui.helpHtml(rules);
  const levels = $("bot-level");
  levels.replaceChildren(
    ...welcome.bots.map((level) => {
      const o = document.createElement("option");
      o.value = level;
      o.textContent = level[0].toUpperCase() + level.slice(1);
      o.selected = level === ui.DEFAULT_BOT;
      return o;
    }),
  );
  for (const box of document.querySelectorAll("fieldset.symbols[data-name]")) {
    const legend = box.querySelector("legend");
    box.replaceChildren(
      legend,
      ...seats.map((seat, i) => {
        const label = document.createElement("label");
        const input = document.createElement("input");
        input.type = "radio";
        input.name = box.dataset.name;
        input.value = seat;
        input.checked = i === 0;
        label.append(input, " " + ui.seatLabel(seat, box.dataset.long !== undefined));
        return label;
      }),
    );
  }
  const list = $("legend-list");
  list.replaceChildren(
    ...ui.legend(rules).map((item) => {
      const li = document.createElement("li");
      const icon = document.createElement("canvas");
      icon.width = 34;
      icon.height = 34;
      const text = document.createElement("span");
      text.innerHTML = item.html;
      li.append(icon, text);
      ui.drawLegendIcon(icon, item.icon);
      return li;
    }),
  );
  $("legend-note").textContent = ui.LEGEND_NOTE || "";
  // A game whose local play is not "mouse and keyboard" says how it is (optional).
  if (ui.LOCAL_NOTE) $("local-note").textContent = ui.LOCAL_NOTE;
  if (ui.LOCAL_SEAT) $("local-seat").textContent = ui.LOCAL_SEAT;
  // A game whose local play passes the screen round (Doh with three or four players:
  // whoever is to move plays) says so, and offers no seat for the mouse (optional).
  const turns = ui.localNote ? ui.localNote(game) : null;
  if (turns) {
    $("local-note").textContent = turns;
    document.querySelector("fieldset.symbols[data-name=mouse]").hidden = true;
  }
  // The menu's buttons wait for the game's choices (they are disabled in the HTML).
  for (const control of document.querySelectorAll("[data-needs-game]")) control.disabled = false;
}
